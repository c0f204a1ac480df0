package dev.herald.delivery.provider.tiktok;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.http.Fault;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.Post;
import dev.herald.delivery.provider.PublishOutcome;
import dev.herald.delivery.support.DeliveryTestSupport;
import dev.herald.delivery.support.FakePlatformApis;
import dev.herald.delivery.support.FakeUsageService;
import dev.herald.delivery.support.GeneratedMedia;
import dev.herald.delivery.support.UploadingPublisherTest;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The TikTok publisher against a WireMock fake of the Content Posting API's Direct Post (creator info, video init, the
 * upload URL's chunk PUTs, status fetch, answers as TikTok documents them), a media host generating the file's bytes and
 * usage-service's reservations. Chunks are TikTok's smallest (5 MiB, set by {@link FakePlatformApis}),
 * so the file below goes in three: two of 5 MiB and a last one with the trailing bytes.
 */
@QuarkusTest
@WithTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "delivery_test"),
        scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakePlatformApis.class, scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakeUsageService.class, scope = TestResourceScope.MATCHING_RESOURCES)
class TikTokPublisherTest extends UploadingPublisherTest {
    private static final String OPEN_ID = "-000OBT5Ct_JuMQ8UZoTjPMEu8Pj3LYI7Q7K";
    private static final String CREATOR_INFO = "/v2/post/publish/creator_info/query/";
    private static final String INIT = "/v2/post/publish/video/init/";
    private static final String STATUS = "/v2/post/publish/status/fetch/";
    private static final String UPLOAD = "/upload/";
    private static final long CHUNK = 5L * 1024 * 1024;
    private static final long SIZE = 3 * CHUNK + 1_234_567;
    private static final String PUBLISH_ID = "v_pub_file~v2-1.7312345678901234567";
    private static final String POST_ID = "7312345678901234567";

    @Inject
    TikTokPublisher publisher;

    private Post.Media video;

    @BeforeEach
    void newTarget() {
        newTarget(Platform.TIKTOK, OPEN_ID, "act.example12345");
        video = new Post.Media(media.file(target.postId + ".mp4", SIZE), Post.Media.VIDEO);
    }

    private static ObjectNode options(String privacy) {
        return DeliveryTestSupport.JSON
                .createObjectNode()
                .put("privacy_level", privacy)
                .put("disable_comment", false)
                .put("disable_duet", true);
    }

    private PublishOutcome publish(ObjectNode options, int attempt) {
        return publisher
                .publish(target.request("Launch day #herald", video, options, attempt))
                .await()
                .atMost(Duration.ofSeconds(60));
    }

    private PublishOutcome publish(int attempt) {
        return publish(options("PUBLIC_TO_EVERYONE"), attempt);
    }

    static String ok(String data) {
        return "{\"data\":" + data
                + ",\"error\":{\"code\":\"ok\",\"message\":\"\",\"log_id\":\"202210112248442CB9319E1FB30C1073F3\"}}";
    }

    private static String error(String code, String message) {
        return "{\"error\":{\"code\":\"" + code + "\",\"message\":\"" + message
                + "\",\"log_id\":\"20231219052215C8D3E3F3A1B2C4D5E6F7\"}}";
    }

    private void creator(String privacyOptions, boolean commentDisabled) {
        creator(fake, privacyOptions, commentDisabled);
    }

    /** creator_info's answer: the privacy levels offered (a JSON array) and whether the creator turned comments off. */
    static void creator(WireMock fake, String privacyOptions, boolean commentDisabled) {
        fake.register(
                post(urlEqualTo(CREATOR_INFO)).willReturn(okJson(ok("""
                {"creator_avatar_url":"https://lf16-tt4d.tiktokcdn.com/obj/tiktok-open-platform/avatar.jpeg",
                 "creator_username":"acme","creator_nickname":"Acme","privacy_level_options":%s,
                 "comment_disabled":%s,"duet_disabled":false,"stitch_disabled":true,"max_video_post_duration_sec":600}""".formatted(privacyOptions, commentDisabled)))));
    }

    private static String uploadUrl(String uploadId) {
        return "http://127.0.0.1:" + Integer.getInteger("herald.test.fake-platforms.port") + UPLOAD + "?upload_id="
                + uploadId + "&upload_token=Xza123";
    }

    private void initAnswers(String publishId, String uploadId) {
        fake.register(post(urlEqualTo(INIT))
                .willReturn(okJson(
                        ok("{\"publish_id\":\"" + publishId + "\",\"upload_url\":\"" + uploadUrl(uploadId) + "\"}"))));
    }

    private static String range(long first, long last) {
        return "bytes " + first + "-" + last + "/" + SIZE;
    }

    /** TikTok takes every chunk of {@code uploadId}: 206 until the last, 201 for it. */
    private void chunksTaken(String uploadId) {
        fake.register(put(urlPathEqualTo(UPLOAD))
                .withQueryParam("upload_id", equalTo(uploadId))
                .willReturn(aResponse().withStatus(206)));
        fake.register(put(urlPathEqualTo(UPLOAD))
                .withQueryParam("upload_id", equalTo(uploadId))
                .withHeader("Content-Range", equalTo(range(2 * CHUNK, SIZE - 1)))
                .willReturn(aResponse().withStatus(201)));
    }

    private void status(String publishId, String data) {
        fake.register(post(urlEqualTo(STATUS))
                .withRequestBody(equalToJson("{\"publish_id\":\"" + publishId + "\"}"))
                .willReturn(okJson(ok(data))));
    }

    private void readyToPost(String publishId, String uploadId) {
        creator("[\"PUBLIC_TO_EVERYONE\",\"MUTUAL_FOLLOW_FRIENDS\",\"SELF_ONLY\"]", false);
        initAnswers(publishId, uploadId);
        chunksTaken(uploadId);
    }

    private List<LoggedRequest> chunksOf(String uploadId) {
        return fake
                .find(putRequestedFor(urlPathEqualTo(UPLOAD)).withQueryParam("upload_id", equalTo(uploadId)))
                .stream()
                .sorted(Comparator.comparingLong(
                        chunk -> Long.parseLong(chunk.getHeader("Content-Range").split("[ -]")[1])))
                .toList();
    }

    private List<String> sourceRequests() {
        return media.requests().stream()
                .filter(r -> r.path().endsWith(target.postId + ".mp4"))
                .map(GeneratedMedia.Request::method)
                .toList();
    }

    @Test
    void aVideoIsUploadedInChunksAndPublishedWhenTikTokHasProcessedItAcrossAttempts() throws Exception {
        readyToPost(PUBLISH_ID, "u-1");

        PublishOutcome uploaded = publish(1);

        // Every byte is at TikTok; the post is checked on later attempts.
        assertThat(uploaded.isLater()).isTrue();
        assertThat(uploaded.checkAgainIn()).isEqualTo(Duration.ofSeconds(30));
        fake.verifyThat(
                1,
                postRequestedFor(urlEqualTo(CREATOR_INFO))
                        .withHeader("Authorization", equalTo("Bearer act.example12345"))
                        .withHeader("Content-Type", equalTo("application/json; charset=UTF-8")));
        fake.verifyThat(
                1,
                postRequestedFor(urlEqualTo(INIT))
                        .withHeader("Authorization", equalTo("Bearer act.example12345"))
                        .withHeader("Content-Type", equalTo("application/json; charset=UTF-8"))
                        .withRequestBody(equalToJson("""
                        {"post_info":{"title":"Launch day #herald","privacy_level":"PUBLIC_TO_EVERYONE","disable_comment":false,
                                      "disable_duet":true,"disable_stitch":true,"brand_content_toggle":false,"brand_organic_toggle":false},
                         "source_info":{"source":"FILE_UPLOAD","video_size":%d,"chunk_size":%d,"total_chunk_count":3}}""".formatted(SIZE, CHUNK))));
        List<LoggedRequest> chunks = chunksOf("u-1");
        assertThat(chunks)
                .extracting(chunk -> chunk.getHeader("Content-Range"))
                .containsExactly(range(0, CHUNK - 1), range(CHUNK, 2 * CHUNK - 1), range(2 * CHUNK, SIZE - 1));
        assertThat(chunks)
                .extracting(chunk -> chunk.getHeader("Content-Length"))
                .containsExactly(Long.toString(CHUNK), Long.toString(CHUNK), Long.toString(SIZE - 2 * CHUNK));
        assertThat(chunks).allSatisfy(chunk -> {
            assertThat(chunk.getHeader("Content-Type")).isEqualTo("video/mp4");
            // The upload URL carries its own token: the user's access token does not go there.
            assertThat(chunk.containsHeader("Authorization")).isFalse();
            assertThat(chunk.queryParameter("upload_token").firstValue()).isEqualTo("Xza123");
        });
        assertThat(GeneratedMedia.sha256(chunks.get(0).getBody())).isEqualTo(GeneratedMedia.sha256(0, CHUNK));
        assertThat(GeneratedMedia.sha256(chunks.get(1).getBody())).isEqualTo(GeneratedMedia.sha256(CHUNK, 2 * CHUNK));
        assertThat(GeneratedMedia.sha256(chunks.get(2).getBody())).isEqualTo(GeneratedMedia.sha256(2 * CHUNK, SIZE));
        // Reserved for exactly the file's length; kept while TikTok processes.
        List<FakeUsageService.MediaCall> calls = FakeUsageService.mediaCalls(reservationId);
        assertThat(calls).extracting(FakeUsageService.MediaCall::kind).containsExactly("reserve");
        assertThat(calls.get(0).body().get("meter").asText()).isEqualTo("media_bytes");
        assertThat(calls.get(0).body().get("units").asLong()).isEqualTo(SIZE);
        assertThat(DeliveryTestSupport.rows(
                        "select * from media_ingest_slots where workspace_id = ?", target.workspace))
                .isEmpty();

        status(PUBLISH_ID, "{\"status\":\"PROCESSING_UPLOAD\",\"uploaded_bytes\":" + SIZE + "}");
        assertThat(publish(2).isLater()).isTrue();

        status(
                PUBLISH_ID,
                "{\"status\":\"PUBLISH_COMPLETE\",\"publicaly_available_post_id\":[" + POST_ID + "],\"uploaded_bytes\":"
                        + SIZE + "}");
        PublishOutcome published = publish(3);

        assertThat(published.published()).isTrue();
        assertThat(published.providerPostId()).isEqualTo(POST_ID);
        assertThat(published.url()).isEqualTo("https://www.tiktok.com/@acme/video/" + POST_ID);
        fake.verifyThat(
                2,
                postRequestedFor(urlEqualTo(STATUS))
                        .withHeader("Authorization", equalTo("Bearer act.example12345"))
                        .withHeader("Content-Type", equalTo("application/json; charset=UTF-8"))
                        .withRequestBody(equalToJson("{\"publish_id\":\"" + PUBLISH_ID + "\"}")));
        fake.verifyThat(1, postRequestedFor(urlEqualTo(INIT)));
        assertThat(chunksOf("u-1")).hasSize(3);
        // The checks never went back to the source: measured once, fetched once.
        assertThat(sourceRequests()).containsExactly("HEAD", "GET");
        assertThat(mediaCallKinds()).containsExactly("reserve", "consume");
        // A later attempt (a lost answer) answers the post from the ledger without asking TikTok.
        assertThat(publish(4).providerPostId()).isEqualTo(POST_ID);
        fake.verifyThat(2, postRequestedFor(urlEqualTo(STATUS)));
    }

    @Test
    void aPrivacyLevelTheCreatorNoLongerOffersFailsFinallyAndNothingIsUploaded() {
        creator("[\"FOLLOWER_OF_CREATOR\",\"SELF_ONLY\"]", false);
        initAnswers(PUBLISH_ID, "u-never");

        PublishOutcome outcome = publish(1);

        assertThat(outcome.published()).isFalse();
        assertThat(outcome.error().code()).isEqualTo("provider_error");
        assertThat(outcome.error().retryable()).isFalse();
        assertThat(outcome.error().details())
                .containsEntry("reason", "privacy_level_unavailable")
                .containsEntry("privacy_level", "PUBLIC_TO_EVERYONE")
                .containsEntry("privacy_level_options", List.of("FOLLOWER_OF_CREATOR", "SELF_ONLY"));
        fake.verifyThat(1, postRequestedFor(urlEqualTo(CREATOR_INFO)));
        assertThat(fake.find(postRequestedFor(urlEqualTo(INIT)))).isEmpty();
        assertThat(fake.find(putRequestedFor(urlPathEqualTo(UPLOAD)))).isEmpty();
        assertThat(sourceRequests()).containsExactly("HEAD");
        assertThat(mediaCallKinds()).containsExactly("reserve", "release");
    }

    @Test
    void commentsTheCreatorTurnedOffCannotBeTurnedOnAtDelivery() {
        creator("[\"PUBLIC_TO_EVERYONE\",\"SELF_ONLY\"]", true);

        PublishOutcome outcome = publish(1);

        assertThat(outcome.error().retryable()).isFalse();
        assertThat(outcome.error().details())
                .containsEntry("reason", "interaction_disabled")
                .containsEntry("option", "disable_comment");
        assertThat(fake.find(postRequestedFor(urlEqualTo(INIT)))).isEmpty();
    }

    @Test
    void anExpiredTokenIsRenewedOnceAndThePostGoesAhead() {
        readyToPost(PUBLISH_ID, "u-fresh");
        fake.register(post(urlPathEqualTo(target.accessPath()))
                .withRequestBody(matchingJsonPath("$.rejected_token_sha256"))
                .willReturn(okJson(target.access("act.fresh67890"))));
        fake.register(post(urlEqualTo(CREATOR_INFO))
                .withHeader("Authorization", equalTo("Bearer act.example12345"))
                .willReturn(aResponse()
                        .withStatus(401)
                        .withHeader("Content-Type", "application/json")
                        .withBody(error(
                                "access_token_invalid", "The access token is invalid or not found in the request."))));

        PublishOutcome outcome = publish(1);

        assertThat(outcome.isLater()).isTrue();
        fake.verifyThat(
                1,
                postRequestedFor(urlPathEqualTo(target.accessPath()))
                        .withRequestBody(matchingJsonPath("$.rejected_token_sha256")));
        fake.verifyThat(
                1,
                postRequestedFor(urlEqualTo(CREATOR_INFO))
                        .withHeader("Authorization", equalTo("Bearer act.fresh67890")));
        fake.verifyThat(
                1, postRequestedFor(urlEqualTo(INIT)).withHeader("Authorization", equalTo("Bearer act.fresh67890")));
        assertThat(chunksOf("u-fresh")).hasSize(3);
    }

    @Test
    void aRateLimitedInitIsRetryableAfterTikToksRetryAfterAndTheRetryPosts() {
        readyToPost(PUBLISH_ID, "u-later");
        fake.register(post(urlEqualTo(INIT))
                .willReturn(aResponse()
                        .withStatus(429)
                        .withHeader("Retry-After", "60")
                        .withHeader("Content-Type", "application/json")
                        .withBody(
                                error("rate_limit_exceeded", "API rate limit was exceeded, please try again later."))));

        PublishOutcome limited = publish(1);

        assertThat(limited.error().retryable()).isTrue();
        assertThat(limited.error().details())
                .containsEntry("retry_after_seconds", 60)
                .containsEntry("provider_code", "rate_limit_exceeded")
                .containsEntry("provider_status", 429)
                .containsEntry("provider_log_id", "20231219052215C8D3E3F3A1B2C4D5E6F7");
        assertThat(fake.find(putRequestedFor(urlPathEqualTo(UPLOAD)))).isEmpty();
        assertThat(mediaCallKinds()).containsExactly("reserve");

        initAnswers(PUBLISH_ID, "u-later");
        PublishOutcome retried = publish(2);

        assertThat(retried.isLater()).isTrue();
        fake.verifyThat(2, postRequestedFor(urlEqualTo(INIT)));
        assertThat(chunksOf("u-later")).hasSize(3);
        assertThat(mediaCallKinds()).containsExactly("reserve", "reserve");
    }

    @Test
    void aCreatorAtTikToksDailyPostCapFailsFinallyBeforeAnyUpload() {
        fake.register(post(urlEqualTo(CREATOR_INFO))
                .willReturn(aResponse()
                        .withStatus(403)
                        .withHeader("Content-Type", "application/json")
                        .withBody(error(
                                "spam_risk_too_many_posts",
                                "The daily post cap from the API is reached for the current user."))));

        PublishOutcome outcome = publish(1);

        assertThat(outcome.error().retryable()).isFalse();
        assertThat(outcome.error().details())
                .containsEntry("provider_code", "spam_risk_too_many_posts")
                .containsEntry("reason", "creator_cannot_post");
        assertThat(fake.find(postRequestedFor(urlEqualTo(INIT)))).isEmpty();
        assertThat(mediaCallKinds()).containsExactly("reserve", "release");
    }

    @Test
    void aPostTikTokFailsIsFailedWithItsReasonAndTheReservationReleased() {
        readyToPost(PUBLISH_ID, "u-bad");
        assertThat(publish(1).isLater()).isTrue();

        status(
                PUBLISH_ID,
                "{\"status\":\"FAILED\",\"fail_reason\":\"file_format_check_failed\",\"publicaly_available_post_id\":[],"
                        + "\"uploaded_bytes\":" + SIZE + "}");
        PublishOutcome failed = publish(2);

        assertThat(failed.published()).isFalse();
        assertThat(failed.error().retryable()).isFalse();
        assertThat(failed.error().message()).contains("file_format_check_failed");
        assertThat(failed.error().details())
                .containsEntry("provider_code", "file_format_check_failed")
                .containsEntry("publish_id", PUBLISH_ID);
        assertThat(mediaCallKinds()).containsExactly("reserve", "release");
        assertThat(TikTokErrors.failed("internal", PUBLISH_ID).retryable()).isTrue();
        assertThat(TikTokErrors.failed("duration_check_failed", PUBLISH_ID).retryable())
                .isFalse();
    }

    @Test
    void anUnknownUploadOutcomeIsSettledByTheStatusWithoutASecondInit() {
        readyToPost(PUBLISH_ID, "u-lost");
        fake.register(put(urlPathEqualTo(UPLOAD))
                .withQueryParam("upload_id", equalTo("u-lost"))
                .withHeader("Content-Range", equalTo(range(2 * CHUNK, SIZE - 1)))
                .willReturn(aResponse().withStatus(503)));

        PublishOutcome lost = publish(1);
        assertThat(lost.published()).isFalse();
        assertThat(lost.mayHavePublished()).isTrue();
        assertThat(lost.error().retryable()).isTrue();

        // TikTok had the whole file after all.
        status(PUBLISH_ID, "{\"status\":\"PROCESSING_UPLOAD\",\"uploaded_bytes\":" + SIZE + "}");
        assertThat(publish(2).isLater()).isTrue();
        status(PUBLISH_ID, "{\"status\":\"PUBLISH_COMPLETE\",\"publicaly_available_post_id\":[" + POST_ID + "]}");
        PublishOutcome published = publish(3);

        assertThat(published.providerPostId()).isEqualTo(POST_ID);
        fake.verifyThat(1, postRequestedFor(urlEqualTo(CREATOR_INFO)));
        fake.verifyThat(1, postRequestedFor(urlEqualTo(INIT)));
        assertThat(chunksOf("u-lost")).hasSize(3);
        assertThat(mediaCallKinds()).containsExactly("reserve", "reserve", "consume");
    }

    @Test
    void anUploadThatBrokeOffIsStartedAgainWithANewInitSinceTikTokPublishesNothingWithoutEveryByte() {
        readyToPost(PUBLISH_ID, "u-broken");
        fake.register(put(urlPathEqualTo(UPLOAD))
                .withQueryParam("upload_id", equalTo("u-broken"))
                .withHeader("Content-Range", equalTo(range(CHUNK, 2 * CHUNK - 1)))
                .willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));
        assertThat(publish(1).mayHavePublished()).isTrue();

        status(PUBLISH_ID, "{\"status\":\"PROCESSING_UPLOAD\",\"uploaded_bytes\":" + CHUNK + "}");
        String second = "v_pub_file~v2-1.7312345678901234999";
        initAnswers(second, "u-again");
        chunksTaken("u-again");
        PublishOutcome again = publish(2);

        assertThat(again.isLater()).isTrue();
        fake.verifyThat(
                1,
                postRequestedFor(urlEqualTo(STATUS))
                        .withRequestBody(equalToJson("{\"publish_id\":\"" + PUBLISH_ID + "\"}")));
        fake.verifyThat(2, postRequestedFor(urlEqualTo(INIT)));
        assertThat(chunksOf("u-again"))
                .extracting(chunk -> chunk.getHeader("Content-Range"))
                .containsExactly(range(0, CHUNK - 1), range(CHUNK, 2 * CHUNK - 1), range(2 * CHUNK, SIZE - 1));
        // The new publish id is the one checked from now on.
        status(second, "{\"status\":\"PUBLISH_COMPLETE\",\"publicaly_available_post_id\":[" + POST_ID + "]}");
        assertThat(publish(3).providerPostId()).isEqualTo(POST_ID);
    }

    @Test
    void aLostInitAnswerAfterARefusedUploadStartsAgainWithoutAskingAboutTheRefusedPublishId() {
        readyToPost(PUBLISH_ID, "u-refused");
        fake.register(put(urlPathEqualTo(UPLOAD))
                .withQueryParam("upload_id", equalTo("u-refused"))
                .willReturn(aResponse()
                        .withStatus(400)
                        .withHeader("Content-Type", "application/json")
                        .withBody(
                                error("invalid_file_upload", "The uploaded file does not meet API specifications."))));
        PublishOutcome refused = publish(1);
        assertThat(refused.error().retryable()).isFalse();
        assertThat(refused.error().details()).containsEntry("provider_code", "invalid_file_upload");
        assertThat(chunksOf("u-refused")).hasSize(1);

        // The next init's answer never arrives (the worker counts the failed call as retryable): nothing was uploaded.
        fake.register(post(urlEqualTo(INIT)).willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));
        assertThatThrownBy(() -> publish(2)).hasRootCauseInstanceOf(java.net.SocketException.class);

        String third = "v_pub_file~v2-1.7312345678901230003";
        initAnswers(third, "u-third");
        chunksTaken("u-third");
        PublishOutcome again = publish(3);

        assertThat(again.isLater()).isTrue();
        // The refused call's publish id was forgotten when the next call started: TikTok was not asked about it.
        assertThat(fake.find(postRequestedFor(urlEqualTo(STATUS)))).isEmpty();
        assertThat(chunksOf("u-third")).hasSize(3);
        fake.verifyThat(3, postRequestedFor(urlEqualTo(INIT)));
    }

    @Test
    void anUploadLeftUncertainIsReconciledByItsStatusWithoutSendingAByte() {
        readyToPost(PUBLISH_ID, "u-last");
        fake.register(put(urlPathEqualTo(UPLOAD))
                .withQueryParam("upload_id", equalTo("u-last"))
                .withHeader("Content-Range", equalTo(range(2 * CHUNK, SIZE - 1)))
                .willReturn(aResponse().withStatus(502)));
        PublishOutcome last = publish(options("SELF_ONLY"), 5);
        assertThat(last.mayHavePublished()).isTrue();
        // TikTok's bare 502 is what the outcome reports, not a failure of Herald's own reading of it.
        assertThat(last.error().retryable()).isTrue();
        assertThat(last.error().details()).containsEntry("provider_status", 502).doesNotContainKey("provider_code");
        assertThat(last.error().message()).doesNotContain("broke off");
        // The bytes may all be at TikTok: nothing is released before the reconciler knows.
        assertThat(mediaCallKinds()).containsExactly("reserve");

        // A private post never gets a public post id: it keeps its publish id, with the creator's profile.
        status(PUBLISH_ID, "{\"status\":\"PUBLISH_COMPLETE\",\"publicaly_available_post_id\":[]}");
        PublishOutcome settled = publisher
                .reconcile(target.reconciling("Launch day #herald", video, options("SELF_ONLY"), 5))
                .await()
                .atMost(Duration.ofSeconds(30));

        assertThat(settled.published()).isTrue();
        assertThat(settled.providerPostId()).isEqualTo(PUBLISH_ID);
        assertThat(settled.url()).isEqualTo("https://www.tiktok.com/@acme");
        fake.verifyThat(1, postRequestedFor(urlEqualTo(INIT)));
        assertThat(chunksOf("u-last")).hasSize(3);
        assertThat(mediaCallKinds()).containsExactly("reserve", "consume");
    }

    @Test
    void theAllowanceIsCheckedBeforeAnyByteMoves() {
        readyToPost(PUBLISH_ID, "u-never");
        FakeUsageService.answerReservation(reservationId, FakeUsageService.refusal(429, "usage_limit_exceeded", """
                {"metric":"media_bytes","limit":1000000000,"used":999000000,"reserved":0,"remaining":1000000,
                 "reset_at":"2026-12-01T00:00:00Z"}"""));
        try {
            PublishOutcome outcome = publish(1);

            assertThat(outcome.error().code()).isEqualTo("usage_limit_exceeded");
            assertThat(outcome.error().retryable()).isFalse();
            assertThat(fake.find(postRequestedFor(urlEqualTo(CREATOR_INFO)))).isEmpty();
            assertThat(fake.find(postRequestedFor(urlEqualTo(INIT)))).isEmpty();
            assertThat(fake.find(putRequestedFor(urlPathEqualTo(UPLOAD)))).isEmpty();
            assertThat(sourceRequests()).containsExactly("HEAD");
        } finally {
            FakeUsageService.answerReservation(reservationId, null);
        }
    }
}
