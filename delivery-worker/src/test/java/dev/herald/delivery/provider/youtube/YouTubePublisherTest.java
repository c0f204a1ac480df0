package dev.herald.delivery.provider.youtube;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
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
import com.github.tomakehurst.wiremock.http.Fault;
import com.github.tomakehurst.wiremock.matching.RequestPatternBuilder;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.Post;
import dev.herald.delivery.provider.PublishOutcome;
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
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The YouTube publisher and media ingest against local fakes: YouTube's resumable upload on WireMock, a media host
 * generating the file's bytes, usage-service's reservations and entitlements.
 */
@QuarkusTest
@WithTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "delivery_test"),
        scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakePlatformApis.class, scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakeUsageService.class, scope = TestResourceScope.MATCHING_RESOURCES)
class YouTubePublisherTest extends UploadingPublisherTest {
    private static final String CHANNEL = "UC_x5XG1OV2P6uZZ5FSM9Ttw";
    private static final String INIT = "/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status";
    private static final String UPLOADS = "/upload/youtube/v3/videos";
    private static final long SIZE = 1_048_699;

    @Inject
    YouTubePublisher publisher;

    private Post.Media video;

    @BeforeEach
    void newTarget() {
        newTarget(Platform.YOUTUBE, CHANNEL, "ya29.token");
        video = new Post.Media(media.file(target.postId + ".mp4", SIZE), Post.Media.VIDEO);
    }

    private PublishOutcome publish(String text, int attempt) {
        return publish(target, text, video, attempt);
    }

    private PublishOutcome publish(LiveTarget target, String text, Post.Media media, int attempt) {
        return publisher
                .publish(target.request(text, media, options(), attempt))
                .await()
                .atMost(Duration.ofSeconds(30));
    }

    private static ObjectNode options() {
        return DeliveryTestSupport.JSON
                .createObjectNode()
                .put("privacy_status", "unlisted")
                .put("made_for_kids", false);
    }

    private static String sessionUri(String uploadId) {
        return "http://127.0.0.1:" + Integer.getInteger("herald.test.fake-platforms.port") + UPLOADS
                + "?uploadType=resumable&upload_id=" + uploadId;
    }

    private void sessionOpens(String uploadId) {
        fake.register(post(urlEqualTo(INIT))
                .willReturn(aResponse().withStatus(200).withHeader("Location", sessionUri(uploadId))));
    }

    private static RequestPatternBuilder uploadOf(String uploadId) {
        return putRequestedFor(urlPathEqualTo(UPLOADS)).withQueryParam("upload_id", equalTo(uploadId));
    }

    private static String videoResource(String id) {
        return "{\"kind\":\"youtube#video\",\"id\":\"" + id + "\",\"snippet\":{\"channelId\":\"" + CHANNEL + "\"},"
                + "\"status\":{\"uploadStatus\":\"uploaded\",\"privacyStatus\":\"unlisted\"}}";
    }

    private static String sha256(byte[] bytes) {
        return GeneratedMedia.sha256(bytes);
    }

    @Test
    void aVideoIsUploadedInOneSessionAndItsBytesAreMeteredExactly() throws Exception {
        sessionOpens("s-1");
        fake.register(put(urlPathEqualTo(UPLOADS))
                .withQueryParam("upload_id", equalTo("s-1"))
                .willReturn(okJson(videoResource("dQw4w9WgXcQ"))));

        PublishOutcome outcome = publish("Launch day <live>\nEverything about the launch.", 1);

        assertThat(outcome.published()).isTrue();
        assertThat(outcome.providerPostId()).isEqualTo("dQw4w9WgXcQ");
        assertThat(outcome.url()).isEqualTo("https://www.youtube.com/watch?v=dQw4w9WgXcQ");
        fake.verifyThat(
                1,
                postRequestedFor(urlEqualTo(INIT))
                        .withHeader("Authorization", equalTo("Bearer ya29.token"))
                        .withHeader("X-Upload-Content-Length", equalTo(Long.toString(SIZE)))
                        .withHeader("X-Upload-Content-Type", equalTo("video/mp4"))
                        .withHeader("Content-Type", equalTo("application/json; charset=UTF-8"))
                        .withRequestBody(equalToJson("""
                        {"snippet":{"title":"Launch day \u2039live\u203A","description":"Launch day \u2039live\u203A\\nEverything about the launch."},
                         "status":{"privacyStatus":"unlisted","selfDeclaredMadeForKids":false}}""")));
        List<LoggedRequest> puts = fake.find(uploadOf("s-1"));
        assertThat(puts).hasSize(1);
        assertThat(puts.get(0).getHeader("Content-Length")).isEqualTo(Long.toString(SIZE));
        assertThat(puts.get(0).getHeader("Content-Type")).isEqualTo("video/mp4");
        assertThat(puts.get(0).containsHeader("Content-Range")).isFalse();
        assertThat(sha256(puts.get(0).getBody())).isEqualTo(GeneratedMedia.sha256(0, SIZE));
        // Reserved for exactly the file's length before the upload, consumed once after it.
        List<FakeUsageService.MediaCall> calls = FakeUsageService.mediaCalls(reservationId);
        assertThat(calls).extracting(FakeUsageService.MediaCall::kind).containsExactly("reserve", "consume");
        assertThat(calls.get(0).body().get("meter").asText()).isEqualTo("media_bytes");
        assertThat(calls.get(0).body().get("units").asLong()).isEqualTo(SIZE);
        assertThat(DeliveryTestSupport.rows(
                        "select * from media_ingest_slots where workspace_id = ?", target.workspace))
                .isEmpty();
    }

    @Test
    void aRefusedTokenIsReplacedOnceAndTheUploadGoesAhead() {
        fake.register(post(urlPathEqualTo(target.accessPath()))
                .withRequestBody(matchingJsonPath("$.rejected_token_sha256"))
                .willReturn(okJson(target.access("ya29.fresh"))));
        fake.register(
                post(urlEqualTo(INIT))
                        .withHeader("Authorization", equalTo("Bearer ya29.token"))
                        .willReturn(
                                aResponse()
                                        .withStatus(401)
                                        .withHeader("Content-Type", "application/json")
                                        .withBody(
                                                "{\"error\":{\"code\":401,\"message\":\"Invalid Credentials\",\"errors\":[{\"reason\":\"authError\"}]}}")));
        fake.register(post(urlEqualTo(INIT))
                .withHeader("Authorization", equalTo("Bearer ya29.fresh"))
                .willReturn(aResponse().withStatus(200).withHeader("Location", sessionUri("s-fresh"))));
        fake.register(put(urlPathEqualTo(UPLOADS)).willReturn(okJson(videoResource("v-fresh"))));

        PublishOutcome outcome = publish("Fresh token", 1);

        assertThat(outcome.providerPostId()).isEqualTo("v-fresh");
        fake.verifyThat(2, postRequestedFor(urlEqualTo(INIT)));
        fake.verifyThat(1, uploadOf("s-fresh").withHeader("Authorization", equalTo("Bearer ya29.fresh")));
    }

    @Test
    void aRateLimitIsRetryableAfterYouTubesRetryAfterAndNothingIsUploaded() {
        fake.register(
                post(urlEqualTo(INIT))
                        .willReturn(
                                aResponse()
                                        .withStatus(429)
                                        .withHeader("Retry-After", "120")
                                        .withHeader("Content-Type", "application/json")
                                        .withBody(
                                                "{\"error\":{\"code\":429,\"message\":\"Too many requests\",\"errors\":[{\"reason\":\"rateLimitExceeded\"}]}}")));

        PublishOutcome outcome = publish("Busy", 1);

        assertThat(outcome.published()).isFalse();
        assertThat(outcome.error().retryable()).isTrue();
        assertThat(outcome.error().details())
                .containsEntry("retry_after_seconds", 120)
                .containsEntry("provider_code", "rateLimitExceeded");
        assertThat(fake.find(putRequestedFor(urlPathEqualTo(UPLOADS)))).isEmpty();
        // Kept for the retry: neither consumed nor released.
        assertThat(mediaCallKinds()).containsExactly("reserve");
    }

    @Test
    void aFinalRefusalCarriesYouTubesReasonAndReleasesTheReservation() {
        fake.register(
                post(urlEqualTo(INIT))
                        .willReturn(
                                aResponse()
                                        .withStatus(400)
                                        .withHeader("Content-Type", "application/json")
                                        .withBody(
                                                "{\"error\":{\"code\":400,\"message\":\"The request metadata specifies an invalid video title.\",\"errors\":[{\"reason\":\"invalidTitle\"}]}}")));

        PublishOutcome outcome = publish("Bad title", 1);

        assertThat(outcome.error().retryable()).isFalse();
        assertThat(outcome.error().details())
                .containsEntry("provider_code", "invalidTitle")
                .containsEntry("provider_status", 400);
        assertThat(outcome.error().message()).contains("invalid video title");
        assertThat(mediaCallKinds()).containsExactly("reserve", "release");
    }

    @Test
    void serverErrorsAreRetriedThenTheTargetFailsWithItsMediaReservationReleased() {
        fake.register(
                post(urlEqualTo(INIT))
                        .willReturn(
                                aResponse()
                                        .withStatus(503)
                                        .withHeader("Content-Type", "application/json")
                                        .withBody(
                                                "{\"error\":{\"code\":503,\"message\":\"Backend Error\",\"errors\":[{\"reason\":\"backendError\"}]}}")));

        PublishOutcome first = publish("Down", 1);
        assertThat(first.error().retryable()).isTrue();
        assertThat(mediaCallKinds()).containsExactly("reserve");

        PublishOutcome last = publish("Down", 5);

        assertThat(last.error().retryable()).isTrue();
        assertThat(last.error().details()).containsEntry("provider_status", 503);
        // One reservation for the destination (the same id both times), released when its last attempt failed.
        assertThat(mediaCallKinds()).containsExactly("reserve", "reserve", "release");
        assertThat(fake.find(putRequestedFor(urlPathEqualTo(UPLOADS)))).isEmpty();
    }

    @Test
    void brokenUploadResumesFromTheOffsetYouTubeConfirms() throws Exception {
        long confirmed = 262_144 * 2; // YouTube keeps whole 256 KiB blocks
        sessionOpens("s-broken");
        fake.register(put(urlPathEqualTo(UPLOADS))
                .withQueryParam("upload_id", equalTo("s-broken"))
                .withHeader("Content-Range", absent())
                .willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));
        fake.register(put(urlPathEqualTo(UPLOADS))
                .withQueryParam("upload_id", equalTo("s-broken"))
                .withHeader("Content-Range", equalTo("bytes */" + SIZE))
                .willReturn(aResponse().withStatus(308).withHeader("Range", "bytes=0-" + (confirmed - 1))));
        fake.register(put(urlPathEqualTo(UPLOADS))
                .withQueryParam("upload_id", equalTo("s-broken"))
                .withHeader("Content-Range", equalTo("bytes " + confirmed + "-" + (SIZE - 1) + "/" + SIZE))
                .willReturn(aResponse()
                        .withStatus(201)
                        .withHeader("Content-Type", "application/json")
                        .withBody(videoResource("v-resumed"))));

        PublishOutcome outcome = publish("Resumed", 1);

        assertThat(outcome.providerPostId()).isEqualTo("v-resumed");
        List<LoggedRequest> resumed = fake.find(uploadOf("s-broken")
                .withHeader("Content-Range", equalTo("bytes " + confirmed + "-" + (SIZE - 1) + "/" + SIZE)));
        assertThat(resumed).hasSize(1);
        assertThat(resumed.get(0).getHeader("Content-Length")).isEqualTo(Long.toString(SIZE - confirmed));
        assertThat(sha256(resumed.get(0).getBody())).isEqualTo(GeneratedMedia.sha256(confirmed, SIZE));
        fake.verifyThat(1, uploadOf("s-broken").withHeader("Content-Range", equalTo("bytes */" + SIZE)));
        fake.verifyThat(1, postRequestedFor(urlEqualTo(INIT)));
        // The source was fetched again from the confirmed offset, not from the start.
        assertThat(media.requests())
                .filteredOn(r -> r.path().endsWith(target.postId + ".mp4") && "GET".equals(r.method()))
                .extracting(GeneratedMedia.Request::range)
                .containsExactly(null, "bytes=" + confirmed + "-");
        assertThat(mediaCallKinds()).containsExactly("reserve", "consume");
    }

    @Test
    void anUnknownOutcomeIsSettledByAskingTheSessionWithoutASecondUpload() {
        sessionOpens("s-unknown");
        fake.register(put(urlPathEqualTo(UPLOADS))
                .withQueryParam("upload_id", equalTo("s-unknown"))
                .withHeader("Content-Range", absent())
                .willReturn(aResponse().withStatus(503)));
        PublishOutcome first = publish("Did it land?", 1);
        assertThat(first.error().retryable()).isTrue();

        // YouTube had every byte after all: the session answers the video.
        fake.register(put(urlPathEqualTo(UPLOADS))
                .withQueryParam("upload_id", equalTo("s-unknown"))
                .withHeader("Content-Range", equalTo("bytes */" + SIZE))
                .willReturn(aResponse()
                        .withStatus(201)
                        .withHeader("Content-Type", "application/json")
                        .withBody(videoResource("v-landed"))));
        PublishOutcome second = publish("Did it land?", 2);

        assertThat(second.providerPostId()).isEqualTo("v-landed");
        fake.verifyThat(1, postRequestedFor(urlEqualTo(INIT)));
        fake.verifyThat(1, uploadOf("s-unknown").withHeader("Content-Range", absent()));
        fake.verifyThat(1, uploadOf("s-unknown").withHeader("Content-Range", equalTo("bytes */" + SIZE)));
        assertThat(mediaCallKinds()).containsExactly("reserve", "reserve", "consume");
        // A third attempt (the second's answer was lost) answers from the ledger without calling YouTube, even with
        // the file gone from its URL meanwhile; the consume is repeated (usage-service consumes a reservation once).
        Post.Media gone = new Post.Media(media.url(target.postId + "-deleted.mp4"), Post.Media.VIDEO);
        PublishOutcome third = publish(target, "Did it land?", gone, 3);
        assertThat(third.providerPostId()).isEqualTo("v-landed");
        assertThat(third.url()).isEqualTo("https://www.youtube.com/watch?v=v-landed");
        fake.verifyThat(2, putRequestedFor(urlPathEqualTo(UPLOADS)));
        assertThat(media.requests())
                .filteredOn(r -> r.path().endsWith(target.postId + "-deleted.mp4"))
                .isEmpty();
        assertThat(mediaCallKinds()).containsExactly("reserve", "reserve", "consume", "consume");
    }

    @Test
    void anUploadLeftUncertainKeepsItsReservationAndIsSettledByItsSessionWithoutSendingAByte() {
        sessionOpens("s-last");
        fake.register(put(urlPathEqualTo(UPLOADS))
                .withQueryParam("upload_id", equalTo("s-last"))
                .withHeader("Content-Range", absent())
                .willReturn(aResponse().withStatus(503)));
        PublishOutcome last = publish("Last try", 5);
        assertThat(last.mayHavePublished()).isTrue();
        // The bytes may all be at YouTube: nothing is released before the reconciler knows.
        assertThat(mediaCallKinds()).containsExactly("reserve");

        fake.register(put(urlPathEqualTo(UPLOADS))
                .withQueryParam("upload_id", equalTo("s-last"))
                .withHeader("Content-Range", equalTo("bytes */" + SIZE))
                .willReturn(aResponse()
                        .withStatus(201)
                        .withHeader("Content-Type", "application/json")
                        .withBody(videoResource("v-late"))));
        PublishOutcome settled = publisher
                .reconcile(target.reconciling("Last try", video, options(), 5))
                .await()
                .atMost(Duration.ofSeconds(30));

        assertThat(settled.published()).isTrue();
        assertThat(settled.providerPostId()).isEqualTo("v-late");
        fake.verifyThat(1, postRequestedFor(urlEqualTo(INIT)));
        fake.verifyThat(1, uploadOf("s-last").withHeader("Content-Range", absent()));
        fake.verifyThat(1, uploadOf("s-last").withHeader("Content-Range", equalTo("bytes */" + SIZE)));
        assertThat(mediaCallKinds()).containsExactly("reserve", "consume");
    }

    @Test
    void anUncertainUploadWhoseSessionNeverFinishedIsSettledFailedAndItsReservationReleased() {
        sessionOpens("s-half");
        fake.register(put(urlPathEqualTo(UPLOADS))
                .withQueryParam("upload_id", equalTo("s-half"))
                .withHeader("Content-Range", absent())
                .willReturn(aResponse().withStatus(502)));
        assertThat(publish("Half", 5).mayHavePublished()).isTrue();

        fake.register(put(urlPathEqualTo(UPLOADS))
                .withQueryParam("upload_id", equalTo("s-half"))
                .withHeader("Content-Range", equalTo("bytes */" + SIZE))
                .willReturn(aResponse().withStatus(308).withHeader("Range", "bytes=0-262143")));
        PublishOutcome settled = publisher
                .reconcile(target.reconciling("Half", video, options(), 5))
                .await()
                .atMost(Duration.ofSeconds(30));

        assertThat(settled.published()).isFalse();
        assertThat(settled.error().retryable()).isFalse();
        assertThat(settled.error().details()).containsEntry("reconciled", true);
        // Looking only: no byte went to YouTube after the failed attempt, and no new session was opened.
        fake.verifyThat(1, postRequestedFor(urlEqualTo(INIT)));
        fake.verifyThat(1, uploadOf("s-half").withHeader("Content-Range", absent()));
        assertThat(mediaCallKinds()).containsExactly("reserve", "release");
    }

    @Test
    void theAllowanceIsCheckedBeforeAnyByteMoves() {
        sessionOpens("s-never");
        FakeUsageService.answerReservation(reservationId, FakeUsageService.refusal(429, "usage_limit_exceeded", """
                {"metric":"media_bytes","limit":1000000000,"used":999000000,"reserved":0,"remaining":1000000,
                 "reset_at":"2026-12-01T00:00:00Z"}"""));
        try {
            PublishOutcome outcome = publish("Too big for the plan", 1);

            assertThat(outcome.error().code()).isEqualTo("usage_limit_exceeded");
            assertThat(outcome.error().retryable()).isFalse();
            assertThat(outcome.error().details())
                    .containsEntry("metric", "media_bytes")
                    .containsEntry("remaining", 1000000)
                    .containsKey("reset_at");
            assertThat(fake.find(postRequestedFor(urlEqualTo(INIT)))).isEmpty();
            assertThat(fake.find(putRequestedFor(urlPathEqualTo(UPLOADS)))).isEmpty();
            // The media host was asked for the length only.
            assertThat(media.requests())
                    .filteredOn(r -> r.path().endsWith(target.postId + ".mp4"))
                    .extracting(GeneratedMedia.Request::method)
                    .containsExactly("HEAD");
        } finally {
            FakeUsageService.answerReservation(reservationId, null);
        }
    }

    @Test
    void aSourceWithoutALengthOrAboveTheMaximumIsRefusedBeforeAnythingIsReserved() {
        Post.Media unsized = new Post.Media(
                media.file(target.postId + "-chunked.mp4", SIZE, Map.of("Content-Length", "")), Post.Media.VIDEO);

        PublishOutcome outcome = publish(target, "No length", unsized, 1);

        assertThat(outcome.error().code()).isEqualTo("media_unavailable");
        assertThat(outcome.error().details()).containsEntry("reason", "length_unknown");
        assertThat(mediaCallKinds()).doesNotContain("reserve");
        assertThat(fake.find(postRequestedFor(urlEqualTo(INIT)))).isEmpty();
    }

    @Test
    void whileAnotherWorkerHoldsTheWorkspacesOnlyIngestSlotTheDeliveryWaitsItsTurn() throws Exception {
        FakeUsageService.concurrentIngests(target.workspace, 1);
        // Another replica's upload of another destination of the same workspace holds slot 0.
        DeliveryTestSupport.update(
                "insert into media_ingest_slots (workspace_id, slot, holder, leased_until) values (?, 0, ?, ?)",
                target.workspace,
                "post_other:acc_other",
                OffsetDateTime.now().plusMinutes(1));
        sessionOpens("s-queued");
        fake.register(put(urlPathEqualTo(UPLOADS)).willReturn(okJson(videoResource("v-queued"))));

        PublishOutcome waiting = publish("Queued", 1);

        assertThat(waiting.isLater()).isTrue();
        assertThat(waiting.checkAgainIn()).isPositive();
        assertThat(fake.find(postRequestedFor(urlEqualTo(INIT)))).isEmpty();
        assertThat(media.requests())
                .filteredOn(r -> r.path().endsWith(target.postId + ".mp4"))
                .extracting(GeneratedMedia.Request::method)
                .doesNotContain("GET");
        assertThat(mediaCallKinds()).containsExactly("reserve");

        // That worker crashed: its lease lapses, and the slot is this delivery's.
        DeliveryTestSupport.update(
                "update media_ingest_slots set leased_until = ? where workspace_id = ?",
                OffsetDateTime.now().minusSeconds(1),
                target.workspace);
        PublishOutcome published = publish("Queued", 1);

        assertThat(published.providerPostId()).isEqualTo("v-queued");
        assertThat(mediaCallKinds()).containsExactly("reserve", "reserve", "consume");
    }

    @Test
    void aSecondDestinationOfTheWorkspaceWaitsWhileTheFirstUploads() throws Exception {
        LiveTarget first = target;
        LiveTarget second = new LiveTarget(Platform.YOUTUBE, CHANNEL, "ya29.token", first.workspace);
        FakeUsageService.concurrentIngests(first.workspace, 1);
        sessionOpens("s-slow");
        fake.register(put(urlPathEqualTo(UPLOADS))
                .willReturn(okJson(videoResource("v-slow")).withFixedDelay(3000)));
        Post.Media secondVideo = new Post.Media(media.file(second.postId + ".mp4", SIZE), Post.Media.VIDEO);

        var firstUpload =
                publisher.publish(first.request("Slow", video, options(), 1)).subscribeAsCompletionStage();
        DeliveryTestSupport.await(
                "the first upload holds the slot",
                () -> !DeliveryTestSupport.rows(
                                "select 1 from media_ingest_slots where workspace_id = ? and leased_until > now()",
                                first.workspace)
                        .isEmpty());
        PublishOutcome secondOutcome = publish(second, "Second", secondVideo, 1);

        assertThat(secondOutcome.isLater()).isTrue();
        assertThat(firstUpload.get().providerPostId()).isEqualTo("v-slow");
        assertThat(publish(second, "Second", secondVideo, 1).published()).isTrue();
    }
}
