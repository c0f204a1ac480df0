package dev.herald.fakes;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * TikTok's Direct Post in the fake, the way Herald's TikTokPublisher calls it: creator info, video init with
 * {@code FILE_UPLOAD}, the chunk PUTs to the upload URL, status fetch until the post is published.
 */
@QuarkusTest
class TikTokPublishingFakeTest {
    private static final long CHUNK = 5L * 1024 * 1024;
    private static final int SIZE = (int) (2 * CHUNK + 100);

    private String token;

    @BeforeEach
    void connected() {
        OAuthDance.resetFakes();
        token = token();
    }

    /** A creator's access token with {@code video.publish}, through the fake's authorization code flow. */
    static String token() {
        String redirect = OAuthDance.REDIRECT + "tiktok";
        Map<String, String> back = OAuthDance.authorize(
                "/tiktok/v2/auth/authorize/",
                Map.of(
                        "client_key",
                        "herald-fake-tiktok-client",
                        "redirect_uri",
                        redirect,
                        "response_type",
                        "code",
                        "scope",
                        "user.info.basic,video.publish",
                        "state",
                        "t"));
        return given().formParams(Map.of(
                        "client_key",
                        "herald-fake-tiktok-client",
                        "client_secret",
                        "herald-fake-tiktok-secret",
                        "code",
                        back.get("code"),
                        "grant_type",
                        "authorization_code",
                        "redirect_uri",
                        redirect))
                .post("/tiktok/v2/oauth/token/")
                .then()
                .statusCode(200)
                .extract()
                .path("access_token");
    }

    private static byte[] video() {
        byte[] video = new byte[SIZE];
        for (int i = 0; i < SIZE; i++) {
            video[i] = (byte) (i * 131 + 17);
        }
        return video;
    }

    private static String sha256(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }

    private JsonPath init(String privacy, long size, long chunkSize, long chunks) {
        return given().auth()
                .oauth2(token)
                .contentType("application/json; charset=UTF-8")
                .body("""
                        {"post_info":{"title":"Launch day","privacy_level":"%s","disable_comment":false,"disable_duet":false,
                                      "disable_stitch":true,"brand_content_toggle":false,"brand_organic_toggle":false},
                         "source_info":{"source":"FILE_UPLOAD","video_size":%d,"chunk_size":%d,"total_chunk_count":%d}}""".formatted(privacy, size, chunkSize, chunks))
                .post("/tiktok/v2/post/publish/video/init/")
                .then()
                .extract()
                .jsonPath();
    }

    private static int put(String uploadUrl, byte[] video, long first, long last) {
        return given().contentType("video/mp4")
                .header("Content-Range", "bytes " + first + "-" + last + "/" + SIZE)
                .body(Arrays.copyOfRange(video, (int) first, (int) last + 1))
                .put(uploadUrl)
                .then()
                .extract()
                .statusCode();
    }

    private JsonPath status(String publishId) {
        return status(token, publishId);
    }

    /** A post's status/fetch answer, which must be TikTok's success. */
    static JsonPath status(String token, String publishId) {
        return given().auth()
                .oauth2(token)
                .contentType("application/json; charset=UTF-8")
                .body("{\"publish_id\":\"" + publishId + "\"}")
                .post("/tiktok/v2/post/publish/status/fetch/")
                .then()
                .statusCode(200)
                .body("error.code", equalTo("ok"))
                .extract()
                .jsonPath();
    }

    @Test
    void aVideoUploadedInItsChunksIsProcessedThenPublished() throws Exception {
        byte[] video = video();
        JsonPath started = init("PUBLIC_TO_EVERYONE", SIZE, CHUNK, 2);
        assertThat(started.getString("error.code")).isEqualTo("ok");
        String publishId = started.getString("data.publish_id");
        String uploadUrl = started.getString("data.upload_url");
        assertThat(publishId).matches("v_pub_file~v2-1\\.\\d{19}");
        assertThat(uploadUrl).matches("http://.+/tiktok/upload/\\?upload_id=\\d{19}&upload_token=\\w{32}");
        assertThat(status(publishId).getString("data.status")).isEqualTo("PROCESSING_UPLOAD");

        // Out of order: the last chunk first.
        assertThat(put(uploadUrl, video, CHUNK, SIZE - 1)).isEqualTo(416);
        assertThat(put(uploadUrl, video, 0, CHUNK - 1)).isEqualTo(206);
        assertThat(status(publishId).getLong("data.uploaded_bytes")).isEqualTo(CHUNK);
        assertThat(put(uploadUrl, video, CHUNK, SIZE - 1)).isEqualTo(201);

        JsonPath processing = status(publishId);
        assertThat(processing.getString("data.status")).isEqualTo("PROCESSING_UPLOAD");
        assertThat(processing.getLong("data.uploaded_bytes")).isEqualTo(SIZE);
        JsonPath complete = status(publishId);
        assertThat(complete.getString("data.status")).isEqualTo("PUBLISH_COMPLETE");
        List<Object> ids = complete.getList("data.publicaly_available_post_id");
        assertThat(ids).hasSize(1);
        assertThat(ids.get(0).toString()).matches("\\d{19}");
        given().get("/_fakes/tiktok/posts")
                .then()
                .body("data.id", contains(ids.get(0).toString()))
                .body("data[0].post_info.title", equalTo("Launch day"));
        // The journal shows what each chunk held, not the bytes.
        List<String> bodies = given().get("/_fakes/tiktok/requests")
                .then()
                .extract()
                .jsonPath()
                .getList("data.findAll { it.method == 'PUT' && it.status != 416 }.body");
        assertThat(bodies)
                .containsExactly(
                        "<" + CHUNK + " bytes, sha256 " + sha256(Arrays.copyOfRange(video, 0, (int) CHUNK)) + ">",
                        "<" + (SIZE - CHUNK) + " bytes, sha256 " + sha256(Arrays.copyOfRange(video, (int) CHUNK, SIZE))
                                + ">");
    }

    @Test
    void aPrivatePostIsPublishedWithoutAPublicPostId() {
        byte[] video = video();
        JsonPath started = init("SELF_ONLY", SIZE, CHUNK, 2);
        String uploadUrl = started.getString("data.upload_url");
        put(uploadUrl, video, 0, CHUNK - 1);
        put(uploadUrl, video, CHUNK, SIZE - 1);
        status(started.getString("data.publish_id"));

        given().auth()
                .oauth2(token)
                .contentType(ContentType.JSON)
                .body("{\"publish_id\":\"" + started.getString("data.publish_id") + "\"}")
                .post("/tiktok/v2/post/publish/status/fetch/")
                .then()
                .statusCode(200)
                .body("data.status", equalTo("PUBLISH_COMPLETE"))
                .body("data.publicaly_available_post_id", empty());
    }

    @Test
    void initRefusesWhatTikTokRefuses() {
        JsonPath wrongCount = init("PUBLIC_TO_EVERYONE", SIZE, CHUNK, 3);
        assertThat(wrongCount.getString("error.code")).isEqualTo("invalid_params");
        assertThat(init("FOLLOWER_OF_CREATOR", SIZE, CHUNK, 2).getString("error.code"))
                .isEqualTo("privacy_level_option_mismatch");
        given().auth()
                .oauth2(token)
                .contentType(ContentType.JSON)
                .body("{\"post_info\":{\"privacy_level\":\"SELF_ONLY\"},\"source_info\":{\"source\":\"PULL_FROM_URL\","
                        + "\"video_url\":\"https://cdn.example.com/a.mp4\"}}")
                .post("/tiktok/v2/post/publish/video/init/")
                .then()
                .statusCode(403)
                .body("error.code", equalTo("url_ownership_unverified"));
        given().auth()
                .oauth2("act.not-issued")
                .contentType(ContentType.JSON)
                .body("{}")
                .post("/tiktok/v2/post/publish/status/fetch/")
                .then()
                .statusCode(401)
                .body("error.code", equalTo("access_token_invalid"));
        given().auth()
                .oauth2(token)
                .contentType(ContentType.JSON)
                .body("{\"publish_id\":\"v_pub_file~v2-1.1\"}")
                .post("/tiktok/v2/post/publish/status/fetch/")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("invalid_publish_id"));
    }

    @Test
    void anArmedProcessingErrorFailsThePostWithTikToksReason() {
        given().contentType(ContentType.JSON)
                .body("{\"kind\":\"processing_error\"}")
                .post("/_fakes/tiktok/failures")
                .then()
                .statusCode(201);
        byte[] video = video();
        JsonPath started = init("PUBLIC_TO_EVERYONE", SIZE, CHUNK, 2);
        put(started.getString("data.upload_url"), video, 0, CHUNK - 1);
        put(started.getString("data.upload_url"), video, CHUNK, SIZE - 1);
        String publishId = started.getString("data.publish_id");
        status(publishId);

        JsonPath failed = status(publishId);
        assertThat(failed.getString("data.status")).isEqualTo("FAILED");
        assertThat(failed.getString("data.fail_reason")).isEqualTo("file_format_check_failed");
        given().get("/_fakes/tiktok/posts").then().body("data", empty());
        given().get("/_fakes/tiktok/requests")
                .then()
                .body(
                        "data.find { it.path == '/v2/post/publish/video/init/' }.failure",
                        matchesPattern("processing_error"));
    }
}
