package dev.herald.delivery.provider.pinterest;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
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
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Pinterest video pins against WireMock standing in for Pinterest's API v5 (media registration and
 * status, pins, boards) and its upload host, a media host generating the file's bytes, and usage-service.
 */
@QuarkusTest
@WithTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "delivery_test"),
        scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakePlatformApis.class, scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakeUsageService.class, scope = TestResourceScope.MATCHING_RESOURCES)
class PinterestVideoPublisherTest extends UploadingPublisherTest {
    private static final String BOARD = "549755885175";
    private static final String MEDIA_ID = "5123456789012345678";
    private static final long SIZE = 2_097_169;
    private static final Pattern BOUNDARY = Pattern.compile("^multipart/form-data; boundary=(herald-[0-9a-f]{32})$");

    @Inject
    PinterestPublisher publisher;

    private Post.Media video;

    @BeforeEach
    void newTarget() {
        newTarget(Platform.PINTEREST, "1122334455", "pina_token");
        video = new Post.Media(media.file(target.postId + ".mp4", SIZE), Post.Media.VIDEO);
    }

    private static ObjectNode options() {
        return DeliveryTestSupport.JSON.createObjectNode().put("board_id", BOARD);
    }

    private PublishOutcome publish(String text, ObjectNode options, int attempt) {
        return publisher
                .publish(target.request(text, video, options, attempt))
                .await()
                .atMost(Duration.ofSeconds(60));
    }

    private PublishOutcome publish(String text, int attempt) {
        return publish(text, options(), attempt);
    }

    private static String uploadUrl() {
        return "http://127.0.0.1:" + Integer.getInteger("herald.test.fake-platforms.port") + "/pinterest-media-upload/";
    }

    /** Pinterest's registration answer: an S3 form POST's URL and fields. */
    private void registrationAnswers() {
        fake.register(post(urlEqualTo("/v5/media"))
                .willReturn(aResponse()
                        .withStatus(201)
                        .withHeader("Content-Type", "application/json")
                        .withBody("""
                        {"media_id":"%s","media_type":"video","upload_url":"%s",
                         "upload_parameters":{"x-amz-date":"20261125T094700Z","x-amz-signature":"0f1e2d3c4b5a","x-amz-security-token":"IQoJb3JpZ2lu",
                          "x-amz-algorithm":"AWS4-HMAC-SHA256","key":"uploads/51/23/45/%s.mp4","policy":"eyJleHBpcmF0aW9uIjoi",
                          "x-amz-credential":"ASIA/20261125/us-east-1/s3/aws4_request","Content-Type":"multipart/form-data"}}""".formatted(MEDIA_ID, uploadUrl(), MEDIA_ID))));
        fake.register(post(urlEqualTo("/pinterest-media-upload/"))
                .willReturn(aResponse().withStatus(204)));
    }

    private void mediaStatus(String status) {
        fake.register(get(urlEqualTo("/v5/media/" + MEDIA_ID)).willReturn(okJson("""
                {"media_id":"%s","media_type":"video","status":"%s"}""".formatted(MEDIA_ID, status))));
    }

    private void pinCreated(String id) {
        fake.register(post(urlEqualTo("/v5/pins"))
                .willReturn(aResponse()
                        .withStatus(201)
                        .withHeader("Content-Type", "application/json")
                        .withBody("{\"id\":\"" + id + "\",\"board_id\":\"" + BOARD + "\"}")));
    }

    private static int indexOf(byte[] body, byte[] part, int from) {
        for (int i = from; i <= body.length - part.length; i++) {
            if (Arrays.equals(body, i, i + part.length, part, 0, part.length)) {
                return i;
            }
        }
        return -1;
    }

    @Test
    void aVideoIsUploadedAsPinterestsFormAndPinnedOnlyOncePinterestHasProcessedIt() {
        registrationAnswers();

        PublishOutcome uploaded = publish(
                "Our chair, assembled in a minute",
                options()
                        .put("board_section_id", "4567")
                        .put("title", "Assembly")
                        .put("link", "https://acme.example/chair"),
                1);

        assertThat(uploaded.isLater()).isTrue();
        assertThat(uploaded.checkAgainIn()).isEqualTo(Duration.ofSeconds(1));
        fake.verifyThat(
                1,
                postRequestedFor(urlEqualTo("/v5/media"))
                        .withHeader("Authorization", equalTo("Bearer pina_token"))
                        .withRequestBody(equalToJson("{\"media_type\":\"video\"}")));
        List<LoggedRequest> uploads = fake.find(postRequestedFor(urlEqualTo("/pinterest-media-upload/")));
        assertThat(uploads).hasSize(1);
        LoggedRequest upload = uploads.get(0);
        assertThat(upload.containsHeader("Authorization")).isFalse();
        Matcher contentType = BOUNDARY.matcher(upload.getHeader("Content-Type"));
        assertThat(contentType.matches()).isTrue();
        String boundary = contentType.group(1);
        byte[] body = upload.getBody();
        assertThat(upload.getHeader("Content-Length")).isEqualTo(Integer.toString(body.length));
        // Every upload parameter as a field, in Pinterest's order, then the file, then the closing boundary.
        String fileHeader =
                "--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"video\"\r\n"
                        + "Content-Type: video/mp4\r\n\r\n";
        int fileStart = indexOf(body, fileHeader.getBytes(StandardCharsets.UTF_8), 0);
        assertThat(fileStart).isPositive();
        String fields = new String(body, 0, fileStart, StandardCharsets.UTF_8);
        assertThat(fields)
                .isEqualTo(field(boundary, "x-amz-date", "20261125T094700Z")
                        + field(boundary, "x-amz-signature", "0f1e2d3c4b5a")
                        + field(boundary, "x-amz-security-token", "IQoJb3JpZ2lu")
                        + field(boundary, "x-amz-algorithm", "AWS4-HMAC-SHA256")
                        + field(boundary, "key", "uploads/51/23/45/" + MEDIA_ID + ".mp4")
                        + field(boundary, "policy", "eyJleHBpcmF0aW9uIjoi")
                        + field(boundary, "x-amz-credential", "ASIA/20261125/us-east-1/s3/aws4_request")
                        + field(boundary, "Content-Type", "multipart/form-data"));
        int bytesStart = fileStart + fileHeader.length();
        byte[] closing = ("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8);
        assertThat(body.length).isEqualTo(bytesStart + SIZE + closing.length);
        assertThat(Arrays.copyOfRange(body, (int) (bytesStart + SIZE), body.length))
                .isEqualTo(closing);
        assertThat(GeneratedMedia.sha256(Arrays.copyOfRange(body, bytesStart, (int) (bytesStart + SIZE))))
                .isEqualTo(GeneratedMedia.sha256(0, SIZE));
        assertThat(fake.find(postRequestedFor(urlEqualTo("/v5/pins")))).isEmpty();
        List<FakeUsageService.MediaCall> reserved = FakeUsageService.mediaCalls(reservationId);
        assertThat(reserved).extracting(FakeUsageService.MediaCall::kind).containsExactly("reserve");
        assertThat(reserved.get(0).body().get("units").asLong()).isEqualTo(SIZE);

        mediaStatus("registered");
        assertThat(publish("Our chair, assembled in a minute", 1).isLater()).isTrue();
        mediaStatus("processing");
        assertThat(publish("Our chair, assembled in a minute", 1).isLater()).isTrue();
        assertThat(fake.find(postRequestedFor(urlEqualTo("/v5/pins")))).isEmpty();

        mediaStatus("succeeded");
        pinCreated("813744226420795885");
        PublishOutcome pinned = publish(
                "Our chair, assembled in a minute",
                options()
                        .put("board_section_id", "4567")
                        .put("title", "Assembly")
                        .put("link", "https://acme.example/chair"),
                1);

        assertThat(pinned.published()).isTrue();
        assertThat(pinned.providerPostId()).isEqualTo("813744226420795885");
        assertThat(pinned.url()).isEqualTo("https://www.pinterest.com/pin/813744226420795885/");
        fake.verifyThat(
                3,
                getRequestedFor(urlEqualTo("/v5/media/" + MEDIA_ID))
                        .withHeader("Authorization", equalTo("Bearer pina_token")));
        fake.verifyThat(
                1,
                postRequestedFor(urlEqualTo("/v5/pins"))
                        .withHeader("Authorization", equalTo("Bearer pina_token"))
                        .withRequestBody(equalToJson("""
                        {"board_id":"549755885175","board_section_id":"4567","title":"Assembly","link":"https://acme.example/chair",
                         "description":"Our chair, assembled in a minute",
                         "media_source":{"source_type":"video_id","cover_image_key_frame_time":1,"media_id":"%s"}}""".formatted(MEDIA_ID))));
        fake.verifyThat(1, postRequestedFor(urlEqualTo("/v5/media")));
        assertThat(media.requests())
                .filteredOn(r -> r.path().endsWith(target.postId + ".mp4") && "GET".equals(r.method()))
                .hasSize(1);
        assertThat(mediaCallKinds()).containsExactly("reserve", "consume");
    }

    private static String field(String boundary, String name, String value) {
        return "--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + name + "\"\r\n\r\n" + value + "\r\n";
    }

    @Test
    void aVideoPinterestFailsToProcessIsAFinalFailureAndItsBytesAreNotCharged() {
        registrationAnswers();
        assertThat(publish("Unplayable", 1).isLater()).isTrue();
        mediaStatus("failed");

        PublishOutcome outcome = publish("Unplayable", 1);

        assertThat(outcome.published()).isFalse();
        assertThat(outcome.error().code()).isEqualTo("provider_error");
        assertThat(outcome.error().retryable()).isFalse();
        assertThat(outcome.error().details())
                .containsEntry("reason", "processing_failed")
                .containsEntry("media_id", MEDIA_ID);
        assertThat(fake.find(postRequestedFor(urlEqualTo("/v5/pins")))).isEmpty();
        assertThat(mediaCallKinds()).containsExactly("reserve", "release");
    }

    @Test
    void anUploadThatBreaksOffIsRegisteredAnewByTheNextAttemptAndPinnedOnce() {
        registrationAnswers();
        fake.register(post(urlEqualTo("/pinterest-media-upload/"))
                .willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));

        PublishOutcome broken = publish("Second try", 1);

        assertThat(broken.error().retryable()).isTrue();
        assertThat(broken.error().details()).containsEntry("reason", "upload_interrupted");
        assertThat(mediaCallKinds()).containsExactly("reserve");

        fake.register(post(urlEqualTo("/pinterest-media-upload/"))
                .willReturn(aResponse().withStatus(204)));
        assertThat(publish("Second try", 2).isLater()).isTrue();
        mediaStatus("succeeded");
        pinCreated("813744226420795886");

        assertThat(publish("Second try", 2).providerPostId()).isEqualTo("813744226420795886");
        fake.verifyThat(2, postRequestedFor(urlEqualTo("/v5/media")));
        fake.verifyThat(1, postRequestedFor(urlEqualTo("/v5/pins")));
        assertThat(fake.find(getRequestedFor(urlPathEqualTo("/v5/boards/" + BOARD + "/pins"))))
                .isEmpty();
        assertThat(mediaCallKinds()).containsExactly("reserve", "reserve", "consume");
    }

    @Test
    void aPinCallWhoseAnswerWasLostIsFoundOnTheBoardInsteadOfPinnedAgain() {
        registrationAnswers();
        assertThat(publish("Lost answer", 1).isLater()).isTrue();
        mediaStatus("succeeded");
        fake.register(post(urlEqualTo("/v5/pins")).willReturn(aResponse().withStatus(503)));

        PublishOutcome unknown = publish("Lost answer", 1);

        assertThat(unknown.mayHavePublished()).isTrue();
        fake.register(get(urlPathEqualTo("/v5/boards/" + BOARD + "/pins")).willReturn(okJson("""
                {"items":[{"id":"813744226420795887","description":"Lost answer"}],"bookmark":null}""")));
        PublishOutcome found = publish("Lost answer", 2);

        assertThat(found.providerPostId()).isEqualTo("813744226420795887");
        fake.verifyThat(1, postRequestedFor(urlEqualTo("/v5/pins")));
        assertThat(mediaCallKinds()).containsExactly("reserve", "consume");
    }

    @Test
    void aRateLimitedPinCallKeepsTheProcessedVideoForTheNextCheck() {
        registrationAnswers();
        assertThat(publish("Busy", 1).isLater()).isTrue();
        mediaStatus("succeeded");
        fake.register(post(urlEqualTo("/v5/pins"))
                .willReturn(aResponse()
                        .withStatus(429)
                        .withHeader("Retry-After", "30")
                        .withHeader("Content-Type", "application/json")
                        .withBody("{\"code\":8,\"message\":\"Rate limit exceeded\"}")));

        PublishOutcome limited = publish("Busy", 1);

        assertThat(limited.error().retryable()).isTrue();
        assertThat(limited.error().details()).containsEntry("retry_after_seconds", 30);
        pinCreated("813744226420795888");
        assertThat(publish("Busy", 2).providerPostId()).isEqualTo("813744226420795888");
        // The pin was made from the same upload, and no look through the board was needed: the 429 created nothing.
        fake.verifyThat(1, postRequestedFor(urlEqualTo("/v5/media")));
        assertThat(fake.find(getRequestedFor(urlPathEqualTo("/v5/boards/" + BOARD + "/pins"))))
                .isEmpty();
    }

    @Test
    void aRefusedRegistrationPublishedNothingAndIsFinalWithPinterestsMessage() {
        fake.register(post(urlEqualTo("/v5/media"))
                .willReturn(aResponse()
                        .withStatus(403)
                        .withHeader("Content-Type", "application/json")
                        .withBody("{\"code\":29,\"message\":\"You are not permitted to access that resource.\"}")));

        PublishOutcome outcome = publish("Not allowed", 1);

        assertThat(outcome.error().retryable()).isFalse();
        assertThat(outcome.error().message()).contains("HTTP 403").contains("not permitted");
        assertThat(outcome.error().details()).containsEntry("provider_code", "29");
        assertThat(fake.find(postRequestedFor(urlEqualTo("/pinterest-media-upload/"))))
                .isEmpty();
        assertThat(mediaCallKinds()).containsExactly("reserve", "release");
    }
}
