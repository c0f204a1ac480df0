package dev.herald.delivery.provider.instagram;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.tomakehurst.wiremock.client.WireMock;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.Post;
import dev.herald.delivery.config.InstagramConfig;
import dev.herald.delivery.provider.PublishOutcome;
import dev.herald.delivery.provider.PublishRequest;
import dev.herald.delivery.support.DeliveryTestSupport;
import dev.herald.delivery.support.FakePlatformApis;
import dev.herald.delivery.support.LiveTarget;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Instagram publisher against a local fake of the Instagram API with Instagram Login. */
@QuarkusTest
@WithTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "delivery_test"),
        scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakePlatformApis.class, scope = TestResourceScope.MATCHING_RESOURCES)
class InstagramPublisherTest {
    private static final String USER = "17841405822304914";
    private static final String IG = "/ig/v24.0/";
    private static final Post.Media IMAGE = new Post.Media("https://cdn.example.com/latte.jpg", Post.Media.IMAGE);

    @Inject
    InstagramPublisher publisher;

    @Inject
    InstagramConfig config;

    private WireMock fake;
    private LiveTarget target;

    @BeforeEach
    void newTarget() {
        target = new LiveTarget(Platform.INSTAGRAM, USER, "IGAA-token");
        fake = target.fake;
    }

    private PublishOutcome publish(String text, Post.Media media, int attempt) {
        return publisher
                .publish(target.request(text, media, LiveTarget.noOptions(), attempt))
                .await()
                .atMost(Duration.ofSeconds(30));
    }

    private void containerCreated(String containerId) {
        fake.register(
                post(urlPathEqualTo(IG + USER + "/media")).willReturn(okJson("{\"id\":\"" + containerId + "\"}")));
    }

    @Test
    void anImageIsPublishedOnceItsContainerHasFinishedProcessing() {
        containerCreated("c-100");
        fake.register(get(urlPathEqualTo(IG + "c-100"))
                .inScenario("processing")
                .whenScenarioStateIs(STARTED)
                .willReturn(okJson("{\"status_code\":\"IN_PROGRESS\",\"id\":\"c-100\"}"))
                .willSetStateTo("finished"));
        fake.register(get(urlPathEqualTo(IG + "c-100"))
                .inScenario("processing")
                .whenScenarioStateIs("finished")
                .willReturn(okJson("{\"status_code\":\"FINISHED\",\"id\":\"c-100\"}")));
        fake.register(post(urlPathEqualTo(IG + USER + "/media_publish")).willReturn(okJson("{\"id\":\"m-200\"}")));
        fake.register(get(urlPathEqualTo(IG + "m-200"))
                .willReturn(okJson("{\"permalink\":\"https://www.instagram.com/p/DAbC123/\",\"id\":\"m-200\"}")));

        PublishOutcome outcome = publish("Morning latte", IMAGE, 1);

        assertThat(outcome.published()).isTrue();
        assertThat(outcome.providerPostId()).isEqualTo("m-200");
        assertThat(outcome.url()).isEqualTo("https://www.instagram.com/p/DAbC123/");
        fake.verifyThat(
                1,
                postRequestedFor(urlPathEqualTo(IG + USER + "/media"))
                        .withHeader("Authorization", equalTo("Bearer IGAA-token"))
                        .withRequestBody(
                                equalToJson(
                                        "{\"image_url\":\"https://cdn.example.com/latte.jpg\",\"caption\":\"Morning latte\"}")));
        fake.verifyThat(2, WireMock.getRequestedFor(urlPathEqualTo(IG + "c-100")));
        fake.verifyThat(
                1,
                postRequestedFor(urlPathEqualTo(IG + USER + "/media_publish"))
                        .withRequestBody(equalToJson("{\"creation_id\":\"c-100\"}")));
    }

    @Test
    void aContainerInstagramCannotProcessIsAFinalRefusalAndNothingIsPublished() {
        containerCreated("c-bad");
        fake.register(get(urlPathEqualTo(IG + "c-bad"))
                .willReturn(okJson("{\"status_code\":\"ERROR\",\"status\":\"Error: unsupported image format\"}")));

        PublishOutcome outcome = publish("Broken image", IMAGE, 1);

        assertThat(outcome.published()).isFalse();
        assertThat(outcome.error().retryable()).isFalse();
        assertThat(outcome.error().message()).contains("ERROR").contains("unsupported image format");
        assertThat(outcome.error().details()).containsEntry("container_status", "ERROR");
        assertThat(fake.find(postRequestedFor(urlPathEqualTo(IG + USER + "/media_publish"))))
                .isEmpty();
    }

    @Test
    void afterAServerErrorOnPublishTheNextAttemptFindsTheMediaByCaption() {
        containerCreated("c-1");
        fake.register(get(urlPathEqualTo(IG + "c-1")).willReturn(okJson("{\"status_code\":\"FINISHED\"}")));
        fake.register(post(urlPathEqualTo(IG + USER + "/media_publish"))
                .willReturn(aResponse().withStatus(500)));
        assertThat(publish("Caption once", IMAGE, 1).error().retryable()).isTrue();

        fake.register(get(urlPathEqualTo(IG + USER + "/media")).willReturn(okJson("""
                {"data":[{"id":"m-9","caption":"Caption once","permalink":"https://www.instagram.com/p/XyZ/","timestamp":"2026-11-23T08:00:00+0000"}]}""")));
        PublishOutcome found = publish("Caption once", IMAGE, 2);

        assertThat(found.providerPostId()).isEqualTo("m-9");
        assertThat(found.url()).isEqualTo("https://www.instagram.com/p/XyZ/");
        assertThat(fake.find(postRequestedFor(urlPathEqualTo(IG + USER + "/media"))))
                .hasSize(1);
        assertThat(fake.find(postRequestedFor(urlPathEqualTo(IG + USER + "/media_publish"))))
                .hasSize(1);
    }

    private static final Post.Media REEL = new Post.Media("https://cdn.example.com/reel.mp4", Post.Media.VIDEO);

    private void reelStatuses(String containerId, String... statuses) {
        for (int i = 0; i < statuses.length; i++) {
            fake.register(get(urlPathEqualTo(IG + containerId))
                    .inScenario("reel")
                    .whenScenarioStateIs(i == 0 ? STARTED : "check " + i)
                    .willReturn(okJson("{\"status_code\":\"" + statuses[i] + "\",\"id\":\"" + containerId + "\"}"))
                    .willSetStateTo("check " + (i + 1)));
        }
    }

    private Map<String, Object> ledger() throws Exception {
        List<Map<String, Object>> rows = DeliveryTestSupport.rows(
                "select state, provider_ref, processing_started_at, checks, calls from provider_publications where token = ?",
                PublishRequest.tokenOf(target.postId, target.accountId));
        assertThat(rows).hasSize(1);
        return rows.get(0);
    }

    @Test
    void aReelIsCheckedOnEachAttemptWhileInstagramProcessesItThenPublishedOnce() throws Exception {
        containerCreated("c-reel");
        reelStatuses("c-reel", "IN_PROGRESS", "IN_PROGRESS", "FINISHED");
        fake.register(post(urlPathEqualTo(IG + USER + "/media_publish")).willReturn(okJson("{\"id\":\"m-reel\"}")));
        fake.register(get(urlPathEqualTo(IG + "m-reel"))
                .willReturn(okJson("{\"permalink\":\"https://www.instagram.com/reel/DReel1/\",\"id\":\"m-reel\"}")));
        ObjectNode options = LiveTarget.noOptions().put("share_to_feed", true);

        PublishOutcome created = publisher
                .publish(target.request("Our new reel", REEL, options, 1))
                .await()
                .atMost(Duration.ofSeconds(30));
        assertThat(created.isLater()).as("the container is processing").isTrue();
        assertThat(created.checkAgainIn()).isEqualTo(config.reelsCheckInterval());
        assertThat(ledger())
                .containsEntry("state", "processing")
                .containsEntry("provider_ref", "c-reel")
                .containsEntry("checks", 0);
        assertThat(fake.find(WireMock.getRequestedFor(urlPathEqualTo(IG + "c-reel"))))
                .as("no check within the create attempt")
                .isEmpty();

        // The worker gives the attempt back on "later", so each check comes as attempt 1 again.
        for (int check = 1; check <= 2; check++) {
            PublishOutcome waiting = publisher
                    .publish(target.request("Our new reel", REEL, options, 1))
                    .await()
                    .atMost(Duration.ofSeconds(30));
            assertThat(waiting.isLater()).as("check %d", check).isTrue();
            assertThat(waiting.checkAgainIn()).isEqualTo(config.reelsCheckInterval());
        }
        PublishOutcome outcome = publisher
                .publish(target.request("Our new reel", REEL, options, 1))
                .await()
                .atMost(Duration.ofSeconds(30));

        assertThat(outcome.published()).isTrue();
        assertThat(outcome.providerPostId()).isEqualTo("m-reel");
        assertThat(outcome.url()).isEqualTo("https://www.instagram.com/reel/DReel1/");
        fake.verifyThat(
                1,
                postRequestedFor(urlPathEqualTo(IG + USER + "/media"))
                        .withHeader("Authorization", equalTo("Bearer IGAA-token"))
                        .withRequestBody(equalToJson("""
                        {"media_type":"REELS","video_url":"https://cdn.example.com/reel.mp4","caption":"Our new reel","share_to_feed":true}""")));
        fake.verifyThat(
                3,
                WireMock.getRequestedFor(urlPathEqualTo(IG + "c-reel"))
                        .withQueryParam("fields", equalTo("status_code,status")));
        fake.verifyThat(
                1,
                postRequestedFor(urlPathEqualTo(IG + USER + "/media_publish"))
                        .withHeader("Authorization", equalTo("Bearer IGAA-token"))
                        .withRequestBody(equalToJson("{\"creation_id\":\"c-reel\"}")));
        assertThat(ledger())
                .containsEntry("state", "published")
                .containsEntry("checks", 3)
                .containsEntry("calls", 1);

        // Asked again (a redelivered attempt), the published reel is answered without a call.
        assertThat(publish("Our new reel", REEL, 1).providerPostId()).isEqualTo("m-reel");
        fake.verifyThat(3, WireMock.getRequestedFor(urlPathEqualTo(IG + "c-reel")));
    }

    @Test
    void aReelInstagramCannotProcessFailsFinalWithInstagramsStatusAndIsNeverPublished() throws Exception {
        containerCreated("c-broken");
        fake.register(
                get(urlPathEqualTo(IG + "c-broken"))
                        .willReturn(
                                okJson(
                                        "{\"status_code\":\"ERROR\",\"status\":\"Error: Media upload has failed with error code 2207026\",\"id\":\"c-broken\"}")));

        assertThat(publish("Broken reel", REEL, 1).isLater()).isTrue();
        PublishOutcome outcome = publish("Broken reel", REEL, 1);

        assertThat(outcome.published()).isFalse();
        assertThat(outcome.error().code()).isEqualTo("provider_error");
        assertThat(outcome.error().retryable()).isFalse();
        assertThat(outcome.error().message()).contains("ERROR").contains("2207026");
        assertThat(outcome.error().details())
                .containsEntry("container_status", "ERROR")
                .containsEntry("container_id", "c-broken");
        assertThat(fake.find(postRequestedFor(urlPathEqualTo(IG + USER + "/media_publish"))))
                .isEmpty();
        assertThat(ledger()).containsEntry("state", "refused");
    }

    @Test
    void aReelStillProcessingPastTheDeadlineFailsRetryableAndTheNextAttemptHandsItOverAgain() throws Exception {
        containerCreated("c-slow");
        fake.register(get(urlPathEqualTo(IG + "c-slow"))
                .willReturn(okJson("{\"status_code\":\"IN_PROGRESS\",\"id\":\"c-slow\"}")));
        assertThat(publish("Slow reel", REEL, 1).isLater()).isTrue();
        assertThat(publish("Slow reel", REEL, 1).isLater())
                .as("within the deadline")
                .isTrue();
        DeliveryTestSupport.update(
                "update provider_publications set processing_started_at = processing_started_at - ?::interval where token = ?",
                config.reelsProcessingDeadline().plusSeconds(1).toSeconds() + " seconds",
                PublishRequest.tokenOf(target.postId, target.accountId));

        PublishOutcome outcome = publish("Slow reel", REEL, 1);

        assertThat(outcome.published()).isFalse();
        assertThat(outcome.isLater()).isFalse();
        assertThat(outcome.error().code()).isEqualTo("provider_error");
        assertThat(outcome.error().retryable()).isTrue();
        assertThat(outcome.error().message()).contains("still processing").contains("nothing was published");
        assertThat(outcome.error().details())
                .containsEntry("reason", "processing_deadline")
                .containsEntry("provider_ref", "c-slow")
                .containsEntry("checks", 2);
        assertThat(fake.find(postRequestedFor(urlPathEqualTo(IG + USER + "/media_publish"))))
                .isEmpty();
        assertThat(ledger()).containsEntry("state", "refused");

        // The retry starts over with a new container (the abandoned one is never published and expires at Instagram).
        containerCreated("c-second");
        assertThat(publish("Slow reel", REEL, 2).isLater()).isTrue();
        assertThat(fake.find(postRequestedFor(urlPathEqualTo(IG + USER + "/media"))))
                .hasSize(2);
        assertThat(ledger())
                .containsEntry("state", "processing")
                .containsEntry("provider_ref", "c-second")
                .containsEntry("checks", 0);
    }

    @Test
    void aTokenRefusedDuringACheckIsReplacedOnceAndTheCheckMadeAgain() throws Exception {
        containerCreated("c-token");
        assertThat(publish("Token reel", REEL, 1).isLater()).isTrue();
        fake.register(post(urlPathEqualTo(target.accessPath()))
                .withRequestBody(matchingJsonPath("$.rejected_token_sha256", equalTo(sha256("IGAA-token"))))
                .willReturn(okJson(target.access("IGAA-fresh"))));
        fake.register(
                get(urlPathEqualTo(IG + "c-token"))
                        .withHeader("Authorization", equalTo("Bearer IGAA-token"))
                        .willReturn(
                                aResponse()
                                        .withStatus(400)
                                        .withHeader("Content-Type", "application/json")
                                        .withBody(
                                                "{\"error\":{\"message\":\"Error validating access token: Session has expired\",\"type\":\"OAuthException\",\"code\":190}}")));
        fake.register(get(urlPathEqualTo(IG + "c-token"))
                .withHeader("Authorization", equalTo("Bearer IGAA-fresh"))
                .willReturn(okJson("{\"status_code\":\"FINISHED\",\"id\":\"c-token\"}")));
        fake.register(post(urlPathEqualTo(IG + USER + "/media_publish"))
                .withHeader("Authorization", equalTo("Bearer IGAA-fresh"))
                .willReturn(okJson("{\"id\":\"m-token\"}")));

        PublishOutcome outcome = publish("Token reel", REEL, 1);

        assertThat(outcome.published()).isTrue();
        assertThat(outcome.providerPostId()).isEqualTo("m-token");
        assertThat(outcome.url())
                .as("the permalink read failed: published without it")
                .isNull();
        fake.verifyThat(
                1,
                postRequestedFor(urlPathEqualTo(target.accessPath()))
                        .withRequestBody(matchingJsonPath("$.rejected_token_sha256")));
        fake.verifyThat(2, WireMock.getRequestedFor(urlPathEqualTo(IG + "c-token")));
        fake.verifyThat(1, postRequestedFor(urlPathEqualTo(IG + USER + "/media")));
        fake.verifyThat(1, postRequestedFor(urlPathEqualTo(IG + USER + "/media_publish")));
    }

    @Test
    void aCheckThatBreaksOffLeavesTheContainerToTheNextCheckInsteadOfMakingAnother() throws Exception {
        containerCreated("c-keep");
        assertThat(publish("Kept reel", REEL, 1).isLater()).isTrue();
        fake.register(get(urlPathEqualTo(IG + "c-keep")).willReturn(aResponse().withStatus(500)));

        PublishOutcome broken = publish("Kept reel", REEL, 1);

        assertThat(broken.error().retryable()).isTrue();
        assertThat(ledger()).containsEntry("state", "processing").containsEntry("provider_ref", "c-keep");

        fake.register(get(urlPathEqualTo(IG + "c-keep"))
                .willReturn(okJson("{\"status_code\":\"FINISHED\",\"id\":\"c-keep\"}")));
        fake.register(post(urlPathEqualTo(IG + USER + "/media_publish")).willReturn(okJson("{\"id\":\"m-keep\"}")));
        assertThat(publish("Kept reel", REEL, 2).providerPostId()).isEqualTo("m-keep");
        fake.verifyThat(1, postRequestedFor(urlPathEqualTo(IG + USER + "/media")));
    }

    @Test
    void aLostMediaPublishAnswerIsSettledFromTheContainersPublishedStatusWithoutPublishingAgain() throws Exception {
        containerCreated("c-lost");
        assertThat(publish("Lost answer", REEL, 1).isLater()).isTrue();
        fake.register(get(urlPathEqualTo(IG + "c-lost"))
                .willReturn(okJson("{\"status_code\":\"FINISHED\",\"id\":\"c-lost\"}")));
        fake.register(post(urlPathEqualTo(IG + USER + "/media_publish"))
                .willReturn(aResponse().withStatus(502)));
        assertThat(publish("Lost answer", REEL, 1).error().retryable()).isTrue();
        assertThat(ledger()).containsEntry("state", "processing");

        fake.register(get(urlPathEqualTo(IG + "c-lost"))
                .willReturn(okJson("{\"status_code\":\"PUBLISHED\",\"id\":\"c-lost\"}")));
        fake.register(get(urlPathEqualTo(IG + USER + "/media")).willReturn(okJson("""
                {"data":[{"id":"m-lost","caption":"Lost answer","permalink":"https://www.instagram.com/reel/Lost/","timestamp":"2026-11-23T08:00:00+0000"}]}""")));
        PublishOutcome found = publish("Lost answer", REEL, 2);

        assertThat(found.published()).isTrue();
        assertThat(found.providerPostId()).isEqualTo("m-lost");
        assertThat(found.url()).isEqualTo("https://www.instagram.com/reel/Lost/");
        fake.verifyThat(1, postRequestedFor(urlPathEqualTo(IG + USER + "/media_publish")));
        fake.verifyThat(1, postRequestedFor(urlPathEqualTo(IG + USER + "/media")));
    }

    @Test
    void anExpiredReelContainerIsRetryableAndTheNextAttemptMakesANewOne() throws Exception {
        containerCreated("c-old");
        assertThat(publish("Expired reel", REEL, 1).isLater()).isTrue();
        fake.register(
                get(urlPathEqualTo(IG + "c-old")).willReturn(okJson("{\"status_code\":\"EXPIRED\",\"id\":\"c-old\"}")));

        PublishOutcome expired = publish("Expired reel", REEL, 1);

        assertThat(expired.error().retryable()).isTrue();
        assertThat(expired.error().details()).containsEntry("container_status", "EXPIRED");
        containerCreated("c-new");
        assertThat(publish("Expired reel", REEL, 2).isLater()).isTrue();
        assertThat(ledger()).containsEntry("provider_ref", "c-new");
        assertThat(fake.find(postRequestedFor(urlPathEqualTo(IG + USER + "/media_publish"))))
                .isEmpty();
    }

    @Test
    void anUncertainReelIsSettledByLookingForItsCaptionNeverByPublishingItsContainer() throws Exception {
        containerCreated("c-unsure");
        assertThat(publish("Unsure reel", REEL, 1).isLater()).isTrue();
        fake.register(get(urlPathEqualTo(IG + "c-unsure"))
                .willReturn(okJson("{\"status_code\":\"FINISHED\",\"id\":\"c-unsure\"}")));
        fake.register(post(urlPathEqualTo(IG + USER + "/media_publish"))
                .willReturn(aResponse().withStatus(503)));
        PublishOutcome lost = publish("Unsure reel", REEL, 5);
        assertThat(lost.mayHavePublished())
                .as("media_publish may have gone through")
                .isTrue();
        fake.register(get(urlPathEqualTo(IG + USER + "/media")).willReturn(okJson("{\"data\":[]}")));

        PublishOutcome settled = publisher
                .reconcile(target.reconciling("Unsure reel", REEL, LiveTarget.noOptions(), 5))
                .await()
                .atMost(Duration.ofSeconds(30));

        assertThat(settled.published()).isFalse();
        assertThat(settled.error().retryable()).isFalse();
        assertThat(settled.error().details()).containsEntry("reconciled", true);
        // Looked only: the finished container was neither checked again nor published.
        fake.verifyThat(1, WireMock.getRequestedFor(urlPathEqualTo(IG + "c-unsure")));
        fake.verifyThat(1, postRequestedFor(urlPathEqualTo(IG + USER + "/media_publish")));
        fake.verifyThat(
                1,
                WireMock.getRequestedFor(urlPathEqualTo(IG + USER + "/media")).withQueryParam("limit", equalTo("25")));
        assertThat(ledger()).containsEntry("state", "refused");
    }

    private static String sha256(String text) throws Exception {
        return HexFormat.of()
                .formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    }
}
