package dev.herald.delivery.provider.facebook;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.Post;
import dev.herald.delivery.provider.PublishOutcome;
import dev.herald.delivery.support.DeliveryTestSupport;
import dev.herald.delivery.support.FakePlatformApis;
import dev.herald.delivery.support.LiveTarget;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Facebook Pages publisher against a local fake of the Graph API's Pages endpoints and of accounts-service's
 * access endpoint, with its call ledger in the real database.
 */
@QuarkusTest
@WithTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "delivery_test"),
        scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakePlatformApis.class, scope = TestResourceScope.MATCHING_RESOURCES)
class FacebookPublisherTest {
    private static final String PAGE = "1029384756";
    private static final String GRAPH = "/v24.0/" + PAGE;

    @Inject
    FacebookPublisher publisher;

    private WireMock fake;
    private LiveTarget target;
    private String accountId;

    @BeforeEach
    void newTarget() {
        target = new LiveTarget(Platform.FACEBOOK, PAGE, "EAAG-page-token");
        fake = target.fake;
        accountId = target.accountId;
    }

    private static com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder graphError(
            int status, int code, String message) {
        return aResponse()
                .withStatus(status)
                .withHeader("Content-Type", "application/json")
                .withBody("""
                {"error":{"message":"%s","type":"OAuthException","code":%d,"fbtrace_id":"AbCdEf"}}""".formatted(message, code));
    }

    private PublishOutcome publish(String text, Post.Media media, int attempt) {
        return publish(text, media, DeliveryTestSupport.JSON.createObjectNode(), attempt);
    }

    private PublishOutcome publish(String text, Post.Media media, ObjectNode options, int attempt) {
        return publisher
                .publish(target.request(text, media, options, attempt))
                .await()
                .atMost(Duration.ofSeconds(30));
    }

    private List<LoggedRequest> calls(String path) {
        return fake.find(postRequestedFor(urlPathEqualTo(GRAPH + path)));
    }

    @Test
    void aTextPostGoesOnThePagesFeedWithThePageToken() {
        fake.register(post(urlPathEqualTo(GRAPH + "/feed")).willReturn(okJson("{\"id\":\"" + PAGE + "_5551\"}")));

        PublishOutcome outcome = publish(
                "Doors open at 9 (really)",
                null,
                DeliveryTestSupport.JSON.createObjectNode().put("link", "https://acme.example/open"),
                1);

        assertThat(outcome.published()).isTrue();
        assertThat(outcome.providerPostId()).isEqualTo(PAGE + "_5551");
        assertThat(outcome.url()).isEqualTo("https://www.facebook.com/" + PAGE + "/posts/5551/");
        fake.verifyThat(
                1,
                postRequestedFor(urlPathEqualTo(GRAPH + "/feed"))
                        .withHeader("Authorization", equalTo("Bearer EAAG-page-token"))
                        .withHeader("Content-Type", WireMock.containing("application/x-www-form-urlencoded"))
                        .withFormParam("message", equalTo("Doors open at 9 (really)"))
                        .withFormParam("link", equalTo("https://acme.example/open")));
    }

    @Test
    void aPhotoIsPostedFromItsUrlAndThePagesPostIsTheAnswer() {
        fake.register(post(urlPathEqualTo(GRAPH + "/photos"))
                .willReturn(okJson("{\"id\":\"7701\",\"post_id\":\"" + PAGE + "_7702\"}")));

        PublishOutcome outcome =
                publish("Our new shop", new Post.Media("https://cdn.example.com/shop.jpg", Post.Media.IMAGE), 1);

        assertThat(outcome.providerPostId()).isEqualTo(PAGE + "_7702");
        assertThat(outcome.url()).isEqualTo("https://www.facebook.com/" + PAGE + "/posts/7702/");
        fake.verifyThat(
                1,
                postRequestedFor(urlPathEqualTo(GRAPH + "/photos"))
                        .withFormParam("url", equalTo("https://cdn.example.com/shop.jpg"))
                        .withFormParam("message", equalTo("Our new shop")));
        assertThat(calls("/feed")).isEmpty();
    }

    @Test
    void aVideoIsPostedFromItsUrl() {
        fake.register(post(urlPathEqualTo(GRAPH + "/videos")).willReturn(okJson("{\"id\":\"9901\"}")));

        PublishOutcome outcome =
                publish("Watch this", new Post.Media("https://cdn.example.com/clip.mp4", Post.Media.VIDEO), 1);

        assertThat(outcome.providerPostId()).isEqualTo("9901");
        assertThat(outcome.url()).isEqualTo("https://www.facebook.com/" + PAGE + "/videos/9901/");
        fake.verifyThat(
                1,
                postRequestedFor(urlPathEqualTo(GRAPH + "/videos"))
                        .withFormParam("file_url", equalTo("https://cdn.example.com/clip.mp4"))
                        .withFormParam("description", equalTo("Watch this")));
    }

    @Test
    void aRateLimitIsRetryableAndTheNextAttemptPostsWithoutLooking() {
        fake.register(
                post(urlPathEqualTo(GRAPH + "/feed")).willReturn(graphError(400, 32, "Page request limit reached")));

        PublishOutcome limited = publish("Busy day", null, 1);

        assertThat(limited.published()).isFalse();
        assertThat(limited.error().retryable()).isTrue();
        assertThat(limited.error().details())
                .containsEntry("provider_code", "32")
                .containsEntry("provider_status", 400);
        assertThat(limited.error().message()).contains("Page request limit reached");

        fake.register(post(urlPathEqualTo(GRAPH + "/feed")).willReturn(okJson("{\"id\":\"" + PAGE + "_2\"}")));
        assertThat(publish("Busy day", null, 2).providerPostId()).isEqualTo(PAGE + "_2");
        assertThat(fake.find(getRequestedFor(urlPathEqualTo(GRAPH + "/feed")))).isEmpty();
    }

    @Test
    void aRefusedPageTokenIsReportedOnceAndAccountsServicesRefusalFailsTheTarget() throws Exception {
        fake.register(post(urlPathEqualTo(GRAPH + "/feed"))
                .willReturn(graphError(400, 190, "Error validating access token")));
        fake.register(post(urlPathEqualTo(target.accessPath()))
                .withRequestBody(matchingJsonPath("$.rejected_token_sha256"))
                .willReturn(aResponse()
                        .withStatus(409)
                        .withHeader("Content-Type", "application/json")
                        .withBody("""
                        {"error":{"code":"conflict","message":"Facebook revoked Herald's access to the account; the account is now disconnected.",
                         "details":{"account_id":"%s","reason":"grant_revoked","provider_code":"token_refused"}},
                         "request_id":"req_000000000000000000000000"}""".formatted(accountId))));

        PublishOutcome outcome = publish("Token trouble", null, 1);

        assertThat(outcome.error().code()).isEqualTo("account_disconnected");
        assertThat(outcome.error().retryable()).isFalse();
        assertThat(outcome.error().details()).containsEntry("reason", "grant_revoked");
        assertThat(calls("/feed")).hasSize(1);
    }

    @Test
    void afterAServerErrorTheNextAttemptFindsTheEarlierPostOnTheFeed() {
        fake.register(
                post(urlPathEqualTo(GRAPH + "/feed")).willReturn(aResponse().withStatus(500)));
        assertThat(publish("Grand opening", null, 1).error().retryable()).isTrue();

        fake.register(get(urlPathEqualTo(GRAPH + "/feed")).willReturn(okJson("""
                {"data":[{"id":"%s_41","message":"Yesterday","created_time":"2026-11-22T10:00:00+0000"},
                         {"id":"%s_42","message":"Grand opening","created_time":"2026-11-23T10:00:00+0000"}]}""".formatted(PAGE, PAGE))));
        PublishOutcome found = publish("Grand opening", null, 2);

        assertThat(found.providerPostId()).isEqualTo(PAGE + "_42");
        assertThat(calls("/feed")).hasSize(1);
        LoggedRequest listed =
                fake.find(getRequestedFor(urlPathEqualTo(GRAPH + "/feed"))).get(0);
        assertThat(listed.queryParameter("fields").firstValue()).isEqualTo("id,message,created_time");
        assertThat(listed.queryParameter("limit").firstValue()).isEqualTo("25");
    }

    @Test
    void aPermissionErrorIsFinal() {
        fake.register(post(urlPathEqualTo(GRAPH + "/feed"))
                .willReturn(graphError(403, 200, "Requires pages_manage_posts permission")));

        PublishOutcome outcome = publish("Not allowed", null, 1);

        assertThat(outcome.error().code()).isEqualTo("provider_error");
        assertThat(outcome.error().retryable()).isFalse();
        assertThat(outcome.error().details()).containsEntry("provider_code", "200");
    }

    @Test
    void anUnknownOutcomeThePageWillNotShowFailsUnconfirmed() {
        fake.register(
                post(urlPathEqualTo(GRAPH + "/videos")).willReturn(aResponse().withStatus(502)));
        Post.Media clip = new Post.Media("https://cdn.example.com/clip.mp4", Post.Media.VIDEO);
        assertThat(publish("Clip", clip, 1).error().retryable()).isTrue();

        fake.register(get(urlPathEqualTo(GRAPH + "/videos")).willReturn(graphError(403, 10, "Permission denied")));
        PublishOutcome outcome = publish("Clip", clip, 2);

        assertThat(outcome.error().code()).isEqualTo("publication_unconfirmed");
        assertThat(outcome.error().retryable()).isFalse();
        assertThat(calls("/videos")).hasSize(1);
    }
}
