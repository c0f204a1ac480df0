package dev.herald.delivery.provider.linkedin;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.put;
import static com.github.tomakehurst.wiremock.client.WireMock.putRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.http.Fault;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.Post;
import dev.herald.common.wire.UsageReservation;
import dev.herald.delivery.provider.PublishOutcome;
import dev.herald.delivery.provider.PublishRequest;
import dev.herald.delivery.support.DeliveryTestSupport;
import dev.herald.delivery.support.FakePlatformApis;
import dev.herald.delivery.support.FakeUsageService;
import dev.herald.delivery.support.GeneratedMedia;
import dev.herald.delivery.support.LiveTarget;
import dev.herald.delivery.support.UploadingPublisherTest;
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
 * LinkedIn image and video posts against WireMock standing in for LinkedIn's Images, Videos and Posts
 * APIs and its upload URLs, a media host generating the file's bytes, and usage-service's media reservations.
 */
@QuarkusTest
@WithTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "delivery_test"),
        scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakePlatformApis.class, scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakeUsageService.class, scope = TestResourceScope.MATCHING_RESOURCES)
class LinkedInMediaPublisherTest extends UploadingPublisherTest {
    private static final String ORGANIZATION = "urn:li:organization:2414183";
    private static final String IMAGE_URN = "urn:li:image:C4E10AQFoyyAjHPMQuQ";
    private static final String VIDEO_URN = "urn:li:video:C5F10AQGKQg_6y2a4sQ";
    private static final String VIDEO_PATH = "/rest/videos/urn%3Ali%3Avideo%3AC5F10AQGKQg_6y2a4sQ";
    private static final long PART = 4_194_304;
    /** Three parts as LinkedIn cuts them: two of 4 MiB and the rest. */
    private static final long VIDEO_SIZE = 2 * PART + 300_001;

    private static final long IMAGE_SIZE = 734_003;

    @Inject
    LinkedInPublisher publisher;

    @BeforeEach
    void newTarget() {
        newTarget(Platform.LINKEDIN, ORGANIZATION, "li-token-1");
    }

    private Post.Media image() {
        return new Post.Media(media.file(target.postId + ".png", IMAGE_SIZE), Post.Media.IMAGE);
    }

    private Post.Media video() {
        return new Post.Media(media.file(target.postId + ".mp4", VIDEO_SIZE), Post.Media.VIDEO);
    }

    private PublishOutcome publish(String text, Post.Media file, ObjectNode options) {
        return publisher.publish(target.request(text, file, options, 1)).await().atMost(Duration.ofSeconds(60));
    }

    private PublishOutcome publish(String text, Post.Media file, int attempt) {
        return publisher
                .publish(target.request(text, file, LiveTarget.noOptions(), attempt))
                .await()
                .atMost(Duration.ofSeconds(60));
    }

    private static String uploadUrl(String path) {
        return "http://127.0.0.1:" + Integer.getInteger("herald.test.fake-platforms.port") + path;
    }

    private void imageUploadOpens() {
        fake.register(post(urlEqualTo("/rest/images?action=initializeUpload")).willReturn(okJson("""
                {"value":{"uploadUrlExpiresAt":1764061200000,"uploadUrl":"%s","image":"%s"}}""".formatted(
                        uploadUrl("/dms-uploads/image-1?ca=vector_feedshare&cn=uploads"), IMAGE_URN))));
        fake.register(put(urlPathEqualTo("/dms-uploads/image-1"))
                .willReturn(aResponse().withStatus(201)));
    }

    private void videoUploadOpens() {
        fake.register(post(urlEqualTo("/rest/videos?action=initializeUpload")).willReturn(okJson("""
                {"value":{"uploadUrlsExpireAt":1764061200000,"video":"%s","uploadToken":"",
                 "uploadInstructions":[
                   {"uploadUrl":"%s","firstByte":0,"lastByte":%d},
                   {"uploadUrl":"%s","firstByte":%d,"lastByte":%d},
                   {"uploadUrl":"%s","firstByte":%d,"lastByte":%d}]}}""".formatted(
                        VIDEO_URN,
                        uploadUrl("/dms-uploads/video-part-1"),
                        PART - 1,
                        uploadUrl("/dms-uploads/video-part-2"),
                        PART,
                        2 * PART - 1,
                        uploadUrl("/dms-uploads/video-part-3"),
                        2 * PART,
                        VIDEO_SIZE - 1))));
        for (int part = 1; part <= 3; part++) {
            fake.register(put(urlPathEqualTo("/dms-uploads/video-part-" + part))
                    .willReturn(aResponse().withStatus(200).withHeader("ETag", "\"etag-" + part + "\"")));
        }
        fake.register(post(urlEqualTo("/rest/videos?action=finalizeUpload"))
                .willReturn(aResponse().withStatus(200)));
    }

    private void videoStatus(String status) {
        fake.register(get(urlEqualTo(VIDEO_PATH)).willReturn(okJson("""
                {"id":"%s","owner":"%s","status":"%s","duration":12000,"aspectRatioWidth":16.0,"aspectRatioHeight":9.0}""".formatted(VIDEO_URN, ORGANIZATION, status))));
    }

    private void postCreated(String urn) {
        fake.register(post(urlEqualTo("/rest/posts"))
                .willReturn(aResponse().withStatus(201).withHeader("x-restli-id", urn)));
    }

    private List<GeneratedMedia.Request> sourceFetches(String file) {
        return media.requests().stream()
                .filter(r -> r.path().endsWith("/" + file) && "GET".equals(r.method()))
                .toList();
    }

    @Test
    void anImageIsUploadedThenPostedWithItsUrnAndAltTextAndItsBytesAreMeteredExactly() {
        imageUploadOpens();
        postCreated("urn:li:share:7100000000000000001");

        PublishOutcome outcome = publish(
                "Our new office (finally)",
                image(),
                LiveTarget.noOptions()
                        .put("visibility", "CONNECTIONS")
                        .put("alt_text", "The team on the new office's roof"));

        assertThat(outcome.published()).isTrue();
        assertThat(outcome.providerPostId()).isEqualTo("urn:li:share:7100000000000000001");
        assertThat(outcome.url()).isEqualTo("https://www.linkedin.com/feed/update/urn:li:share:7100000000000000001/");
        fake.verifyThat(
                1,
                postRequestedFor(urlEqualTo("/rest/images?action=initializeUpload"))
                        .withHeader("Authorization", equalTo("Bearer li-token-1"))
                        .withHeader("LinkedIn-Version", equalTo("202601"))
                        .withHeader("X-Restli-Protocol-Version", equalTo("2.0.0"))
                        .withRequestBody(equalToJson(
                                "{\"initializeUploadRequest\":{\"owner\":\"urn:li:organization:2414183\"}}")));
        List<LoggedRequest> uploads = fake.find(putRequestedFor(urlPathEqualTo("/dms-uploads/image-1")));
        assertThat(uploads).hasSize(1);
        assertThat(uploads.get(0).getHeader("Authorization")).isEqualTo("Bearer li-token-1");
        assertThat(uploads.get(0).getHeader("Content-Length")).isEqualTo(Long.toString(IMAGE_SIZE));
        assertThat(GeneratedMedia.sha256(uploads.get(0).getBody())).isEqualTo(GeneratedMedia.sha256(0, IMAGE_SIZE));
        fake.verifyThat(
                1,
                postRequestedFor(urlEqualTo("/rest/posts"))
                        .withHeader("LinkedIn-Version", equalTo("202601"))
                        .withHeader("X-Restli-Protocol-Version", equalTo("2.0.0"))
                        .withRequestBody(equalToJson("""
                        {"author":"urn:li:organization:2414183","commentary":"Our new office \\\\(finally\\\\)",
                         "visibility":"CONNECTIONS",
                         "distribution":{"feedDistribution":"MAIN_FEED","targetEntities":[],"thirdPartyDistributionChannels":[]},
                         "content":{"media":{"altText":"The team on the new office's roof","id":"%s"}},
                         "lifecycleState":"PUBLISHED","isReshareDisabledByAuthor":false}""".formatted(IMAGE_URN))));
        List<FakeUsageService.MediaCall> calls = FakeUsageService.mediaCalls(reservationId);
        assertThat(calls).extracting(FakeUsageService.MediaCall::kind).containsExactly("reserve", "consume");
        assertThat(calls.get(0).body().get("meter").asText()).isEqualTo("media_bytes");
        assertThat(calls.get(0).body().get("units").asLong()).isEqualTo(IMAGE_SIZE);
    }

    @Test
    void theAllowanceIsCheckedBeforeLinkedInHearsOfTheUpload() {
        imageUploadOpens();
        FakeUsageService.answerReservation(reservationId, FakeUsageService.refusal(429, "usage_limit_exceeded", """
                {"metric":"media_bytes","limit":1000000,"used":900000,"reserved":0,"remaining":100000,
                 "reset_at":"2026-12-01T00:00:00Z"}"""));
        try {
            PublishOutcome outcome = publish("Too big for the plan", image(), 1);

            assertThat(outcome.error().code()).isEqualTo("usage_limit_exceeded");
            assertThat(fake.find(postRequestedFor(urlEqualTo("/rest/images?action=initializeUpload"))))
                    .isEmpty();
            assertThat(fake.find(putRequestedFor(WireMock.anyUrl()))).isEmpty();
            assertThat(sourceFetches(target.postId + ".png")).isEmpty();
        } finally {
            FakeUsageService.answerReservation(reservationId, null);
        }
    }

    @Test
    void aVideoIsUploadedInLinkedInsPartsAndPostedOnlyOnceLinkedInHasProcessedIt() {
        videoUploadOpens();
        Post.Media video = video();

        PublishOutcome uploaded = publish("Launch film", video, 1);

        assertThat(uploaded.isLater()).isTrue();
        assertThat(uploaded.checkAgainIn()).isEqualTo(Duration.ofSeconds(1));
        fake.verifyThat(
                1,
                postRequestedFor(urlEqualTo("/rest/videos?action=initializeUpload"))
                        .withHeader("LinkedIn-Version", equalTo("202601"))
                        .withHeader("X-Restli-Protocol-Version", equalTo("2.0.0"))
                        .withRequestBody(equalToJson("""
                        {"initializeUploadRequest":{"owner":"urn:li:organization:2414183","fileSizeBytes":%d,
                         "uploadCaptions":false,"uploadThumbnail":false}}""".formatted(VIDEO_SIZE))));
        long[][] ranges = {{0, PART}, {PART, 2 * PART}, {2 * PART, VIDEO_SIZE}};
        for (int part = 1; part <= 3; part++) {
            List<LoggedRequest> puts = fake.find(putRequestedFor(urlPathEqualTo("/dms-uploads/video-part-" + part)));
            assertThat(puts).hasSize(1);
            long[] range = ranges[part - 1];
            assertThat(puts.get(0).getHeader("Content-Type")).isEqualTo("application/octet-stream");
            assertThat(puts.get(0).getHeader("Content-Length")).isEqualTo(Long.toString(range[1] - range[0]));
            assertThat(GeneratedMedia.sha256(puts.get(0).getBody()))
                    .isEqualTo(GeneratedMedia.sha256(range[0], range[1]));
        }
        fake.verifyThat(
                1,
                postRequestedFor(urlEqualTo("/rest/videos?action=finalizeUpload"))
                        .withRequestBody(equalToJson("""
                        {"finalizeUploadRequest":{"video":"%s","uploadToken":"",
                         "uploadedPartIds":["\\"etag-1\\"","\\"etag-2\\"","\\"etag-3\\""]}}""".formatted(VIDEO_URN))));
        // The source was fetched once, from its first byte, and carved into the three parts.
        assertThat(sourceFetches(target.postId + ".mp4"))
                .extracting(GeneratedMedia.Request::range)
                .containsExactly((String) null);
        assertThat(fake.find(postRequestedFor(urlEqualTo("/rest/posts")))).isEmpty();
        assertThat(mediaCallKinds()).containsExactly("reserve");

        videoStatus("PROCESSING");
        PublishOutcome processing = publish("Launch film", video, 1);
        assertThat(processing.isLater()).isTrue();
        assertThat(fake.find(postRequestedFor(urlEqualTo("/rest/posts")))).isEmpty();

        videoStatus("AVAILABLE");
        postCreated("urn:li:share:7100000000000000002");
        PublishOutcome published = publish("Launch film", video, 1);

        assertThat(published.published()).isTrue();
        assertThat(published.providerPostId()).isEqualTo("urn:li:share:7100000000000000002");
        fake.verifyThat(
                2,
                getRequestedFor(urlEqualTo(VIDEO_PATH))
                        .withHeader("LinkedIn-Version", equalTo("202601"))
                        .withHeader("X-Restli-Protocol-Version", equalTo("2.0.0")));
        fake.verifyThat(
                1, postRequestedFor(urlEqualTo("/rest/posts")).withRequestBody(equalToJson("""
                {"author":"urn:li:organization:2414183","commentary":"Launch film","visibility":"PUBLIC",
                 "distribution":{"feedDistribution":"MAIN_FEED","targetEntities":[],"thirdPartyDistributionChannels":[]},
                 "content":{"media":{"id":"%s"}},"lifecycleState":"PUBLISHED","isReshareDisabledByAuthor":false}""".formatted(VIDEO_URN))));
        // Checks moved no bytes: one upload in all, one reservation, consumed with the post.
        fake.verifyThat(1, postRequestedFor(urlEqualTo("/rest/videos?action=initializeUpload")));
        assertThat(sourceFetches(target.postId + ".mp4")).hasSize(1);
        assertThat(mediaCallKinds()).containsExactly("reserve", "consume");
    }

    @Test
    void aVideoLinkedInCannotProcessFailsWithItsReasonAndReleasesTheReservation() {
        videoUploadOpens();
        Post.Media video = video();
        assertThat(publish("Broken film", video, 1).isLater()).isTrue();
        fake.register(get(urlEqualTo(VIDEO_PATH)).willReturn(okJson("""
                {"id":"%s","owner":"%s","status":"PROCESSING_FAILED","processingFailureReason":"Video duration is too short"}""".formatted(VIDEO_URN, ORGANIZATION))));

        PublishOutcome outcome = publish("Broken film", video, 1);

        assertThat(outcome.published()).isFalse();
        assertThat(outcome.error().code()).isEqualTo("provider_error");
        assertThat(outcome.error().retryable()).isFalse();
        assertThat(outcome.error().message()).contains("Video duration is too short");
        assertThat(outcome.error().details())
                .containsEntry("reason", "processing_failed")
                .containsEntry("video", VIDEO_URN);
        assertThat(fake.find(postRequestedFor(urlEqualTo("/rest/posts")))).isEmpty();
        assertThat(mediaCallKinds()).containsExactly("reserve", "release");
    }

    @Test
    void anUploadThatBreaksOffIsStartedAnewByTheNextAttemptAndPostedOnce() {
        videoUploadOpens();
        fake.register(put(urlPathEqualTo("/dms-uploads/video-part-2"))
                .willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));
        Post.Media video = video();

        PublishOutcome broken = publish("Second try", video, 1);

        assertThat(broken.published()).isFalse();
        assertThat(broken.error().retryable()).isTrue();
        assertThat(broken.error().details()).containsEntry("reason", "upload_interrupted");
        assertThat(fake.find(postRequestedFor(urlEqualTo("/rest/videos?action=finalizeUpload"))))
                .isEmpty();
        assertThat(fake.find(putRequestedFor(urlPathEqualTo("/dms-uploads/video-part-3"))))
                .isEmpty();
        assertThat(mediaCallKinds()).containsExactly("reserve");

        fake.register(put(urlPathEqualTo("/dms-uploads/video-part-2"))
                .willReturn(aResponse().withStatus(200).withHeader("ETag", "\"etag-2\"")));
        assertThat(publish("Second try", video, 2).isLater()).isTrue();
        videoStatus("AVAILABLE");
        postCreated("urn:li:share:7100000000000000003");
        PublishOutcome published = publish("Second try", video, 2);

        assertThat(published.providerPostId()).isEqualTo("urn:li:share:7100000000000000003");
        fake.verifyThat(2, postRequestedFor(urlEqualTo("/rest/videos?action=initializeUpload")));
        fake.verifyThat(1, postRequestedFor(urlEqualTo("/rest/videos?action=finalizeUpload")));
        fake.verifyThat(1, postRequestedFor(urlEqualTo("/rest/posts")));
        // The broken attempt looked for no post: an upload publishes nothing.
        assertThat(fake.find(getRequestedFor(urlPathEqualTo("/rest/posts")))).isEmpty();
        assertThat(mediaCallKinds()).containsExactly("reserve", "reserve", "consume");
    }

    @Test
    void aPostCallWhoseAnswerWasLostIsFoundAmongTheAuthorsPostsInsteadOfPostedAgain() {
        videoUploadOpens();
        Post.Media video = video();
        assertThat(publish("Did it post?", video, 1).isLater()).isTrue();
        videoStatus("AVAILABLE");
        fake.register(post(urlEqualTo("/rest/posts")).willReturn(aResponse().withStatus(504)));

        PublishOutcome unknown = publish("Did it post?", video, 1);

        assertThat(unknown.published()).isFalse();
        assertThat(unknown.mayHavePublished()).isTrue();
        assertThat(mediaCallKinds()).containsExactly("reserve");

        fake.register(get(urlPathEqualTo("/rest/posts")).willReturn(okJson("""
                {"paging":{"start":0,"count":20},"elements":[
                  {"id":"urn:li:ugcPost:7100000000000000004","author":"%s","commentary":"Did it post?",
                   "content":{"media":{"id":"%s"}},"lifecycleState":"PUBLISHED"}]}""".formatted(ORGANIZATION, VIDEO_URN))));
        PublishOutcome found = publish("Did it post?", video, 2);

        assertThat(found.published()).isTrue();
        assertThat(found.providerPostId()).isEqualTo("urn:li:ugcPost:7100000000000000004");
        fake.verifyThat(1, postRequestedFor(urlEqualTo("/rest/posts")));
        fake.verifyThat(1, getRequestedFor(urlPathEqualTo("/rest/posts")).withQueryParam("q", equalTo("author")));
        assertThat(mediaCallKinds()).containsExactly("reserve", "consume");
    }

    @Test
    void anUploadALostAttemptLeftUnfinishedIsUploadedAgainWithoutLookingForAPost() throws Exception {
        // The worker died mid-upload: the ledger shows a create call whose answer never came.
        DeliveryTestSupport.update("""
                insert into provider_publications (token, platform, state, calls, created_at, updated_at)
                values (?, 'linkedin', 'calling', 1, now(), now())""", PublishRequest.tokenOf(target.postId, target.accountId));
        videoUploadOpens();

        PublishOutcome outcome = publish("Uploaded again", video(), 2);

        // An upload publishes nothing, so there is nothing to look for (members' posts could not even be listed).
        assertThat(outcome.isLater()).isTrue();
        assertThat(fake.find(getRequestedFor(urlPathEqualTo("/rest/posts")))).isEmpty();
        fake.verifyThat(1, postRequestedFor(urlEqualTo("/rest/videos?action=finalizeUpload")));
    }

    @Test
    void anUncertainVideoPostIsSettledFromTheAuthorsPostsAndAnUnstartedOneWithoutAskingLinkedIn() {
        videoUploadOpens();
        Post.Media video = video();
        assertThat(publish("Last attempt", video, 5).isLater()).isTrue();
        videoStatus("AVAILABLE");
        fake.register(post(urlEqualTo("/rest/posts")).willReturn(aResponse().withStatus(502)));
        assertThat(publish("Last attempt", video, 5).mayHavePublished()).isTrue();
        assertThat(mediaCallKinds()).containsExactly("reserve");
        fake.register(get(urlPathEqualTo("/rest/posts")).willReturn(okJson("""
                {"paging":{"start":0,"count":20},"elements":[
                  {"id":"urn:li:ugcPost:7100000000000000006","author":"%s","commentary":"Last attempt","lifecycleState":"PUBLISHED"}]}""".formatted(ORGANIZATION))));

        PublishOutcome settled = publisher
                .reconcile(target.reconciling("Last attempt", video, LiveTarget.noOptions(), 5))
                .await()
                .atMost(Duration.ofSeconds(30));

        assertThat(settled.providerPostId()).isEqualTo("urn:li:ugcPost:7100000000000000006");
        fake.verifyThat(1, postRequestedFor(urlEqualTo("/rest/posts")));
        assertThat(mediaCallKinds()).containsExactly("reserve", "consume");

        // Another target whose video never got as far as its post: nothing to find, and nothing is asked.
        LiveTarget other = new LiveTarget(Platform.LINKEDIN, ORGANIZATION, "li-token-1", target.workspace);
        Post.Media otherVideo = new Post.Media(media.file(other.postId + ".mp4", VIDEO_SIZE), Post.Media.VIDEO);
        fake.register(get(urlEqualTo(VIDEO_PATH)).willReturn(aResponse().withStatus(500)));
        assertThat(publisher
                        .publish(other.request("Never posted", otherVideo, LiveTarget.noOptions(), 5))
                        .await()
                        .atMost(Duration.ofSeconds(60))
                        .isLater())
                .isTrue();
        assertThat(publisher
                        .publish(other.request("Never posted", otherVideo, LiveTarget.noOptions(), 5))
                        .await()
                        .atMost(Duration.ofSeconds(60))
                        .mayHavePublished())
                .isTrue();
        int listings = fake.find(getRequestedFor(urlPathEqualTo("/rest/posts"))).size();

        PublishOutcome notPublished = publisher
                .reconcile(other.reconciling("Never posted", otherVideo, LiveTarget.noOptions(), 5))
                .await()
                .atMost(Duration.ofSeconds(30));

        assertThat(notPublished.published()).isFalse();
        assertThat(notPublished.error().details()).containsEntry("reconciled", true);
        assertThat(fake.find(getRequestedFor(urlPathEqualTo("/rest/posts")))).hasSize(listings);
        assertThat(FakeUsageService.mediaCalls(UsageReservation.mediaBytesId(other.postId, other.accountId)))
                .extracting(FakeUsageService.MediaCall::kind)
                .containsExactly("reserve", "release");
    }

    @Test
    void aRefusedTokenIsReplacedOnceAndTheUploadGoesAhead() {
        fake.register(post(urlPathEqualTo(target.accessPath()))
                .withRequestBody(matchingJsonPath("$.rejected_token_sha256"))
                .willReturn(okJson(target.access("li-token-2"))));
        imageUploadOpens();
        fake.register(
                post(urlEqualTo("/rest/images?action=initializeUpload"))
                        .withHeader("Authorization", equalTo("Bearer li-token-1"))
                        .willReturn(
                                aResponse()
                                        .withStatus(401)
                                        .withHeader("Content-Type", "application/json")
                                        .withBody(
                                                "{\"status\":401,\"serviceErrorCode\":65600,\"code\":\"INVALID_ACCESS_TOKEN\",\"message\":\"Invalid access token\"}")));
        postCreated("urn:li:share:7100000000000000005");

        PublishOutcome outcome = publish("Fresh token", image(), 1);

        assertThat(outcome.providerPostId()).isEqualTo("urn:li:share:7100000000000000005");
        fake.verifyThat(2, postRequestedFor(urlEqualTo("/rest/images?action=initializeUpload")));
        fake.verifyThat(
                1,
                putRequestedFor(urlPathEqualTo("/dms-uploads/image-1"))
                        .withHeader("Authorization", equalTo("Bearer li-token-2")));
        fake.verifyThat(
                1,
                postRequestedFor(urlEqualTo("/rest/posts")).withHeader("Authorization", equalTo("Bearer li-token-2")));
    }

    @Test
    void aRateLimitedUploadStartIsRetryableAfterLinkedInsRetryAfter() {
        fake.register(
                post(urlEqualTo("/rest/videos?action=initializeUpload"))
                        .willReturn(
                                aResponse()
                                        .withStatus(429)
                                        .withHeader("Retry-After", "60")
                                        .withHeader("Content-Type", "application/json")
                                        .withBody(
                                                "{\"status\":429,\"message\":\"Resource level throttle APPLICATION DAY limit for calls to this resource is reached.\"}")));

        PublishOutcome outcome = publish("Busy", video(), 1);

        assertThat(outcome.error().retryable()).isTrue();
        assertThat(outcome.error().details())
                .containsEntry("provider_status", 429)
                .containsEntry("retry_after_seconds", 60);
        assertThat(fake.find(putRequestedFor(WireMock.anyUrl()))).isEmpty();
        assertThat(mediaCallKinds()).containsExactly("reserve");
    }
}
