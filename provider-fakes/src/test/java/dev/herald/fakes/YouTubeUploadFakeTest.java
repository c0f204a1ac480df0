package dev.herald.fakes;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.nullValue;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** YouTube's resumable upload as the fake receives it, and the sample media files Herald uploads from. */
@QuarkusTest
class YouTubeUploadFakeTest {
    private static final int SIZE = 200_000;

    @BeforeEach
    void reset() {
        OAuthDance.resetFakes();
    }

    @Test
    void sampleMediaIsTheSameBytesEveryTimeServesRangesAndNamesItsType() throws Exception {
        byte[] whole = given().queryParam("bytes", SIZE)
                .get("/_fakes/media/garden.mp4")
                .then()
                .statusCode(200)
                .header("Content-Type", "video/mp4")
                .header("Content-Length", Integer.toString(SIZE))
                .header("Accept-Ranges", "bytes")
                .extract()
                .asByteArray();
        assertThat(whole).hasSize(SIZE);
        assertThat(given().queryParam("bytes", SIZE)
                        .get("/_fakes/media/garden.mp4")
                        .asByteArray())
                .isEqualTo(whole);
        assertThat(given().queryParam("bytes", SIZE)
                        .get("/_fakes/media/other.mp4")
                        .asByteArray())
                .isNotEqualTo(whole);

        byte[] tail = given().queryParam("bytes", SIZE)
                .header("Range", "bytes=70000-")
                .get("/_fakes/media/garden.mp4")
                .then()
                .statusCode(206)
                .header("Content-Range", "bytes 70000-199999/200000")
                .extract()
                .asByteArray();
        assertThat(tail).isEqualTo(Arrays.copyOfRange(whole, 70_000, SIZE));
        given().queryParam("bytes", SIZE)
                .head("/_fakes/media/garden.mp4")
                .then()
                .statusCode(200)
                .header("Content-Length", Integer.toString(SIZE));
        given().queryParam("bytes", SIZE)
                .header("Range", "bytes=200000-")
                .get("/_fakes/media/garden.mp4")
                .then()
                .statusCode(416);
        given().get("/_fakes/media/garden.mp4").then().statusCode(400);
        given().queryParam("bytes", 10)
                .get("/_fakes/media/cover.jpg")
                .then()
                .statusCode(200)
                .header("Content-Type", "image/jpeg");
    }

    @Test
    void aResumableUploadInTwoRequestsPublishesTheVideoWithEveryByteItReceived() throws Exception {
        String token = OtherPlatformFakesTest.youtubeUploadToken();
        byte[] video = given().queryParam("bytes", SIZE)
                .get("/_fakes/media/garden.mp4")
                .asByteArray();
        String session = given().auth()
                .oauth2(token)
                .contentType(ContentType.JSON)
                .header("X-Upload-Content-Length", SIZE)
                .header("X-Upload-Content-Type", "video/mp4")
                .queryParams(Map.of("uploadType", "resumable", "part", "snippet,status"))
                .body("{\"snippet\":{\"title\":\"Garden tour\",\"description\":\"Spring\"},"
                        + "\"status\":{\"privacyStatus\":\"unlisted\",\"selfDeclaredMadeForKids\":false}}")
                .post("/youtube/upload/youtube/v3/videos")
                .then()
                .statusCode(200)
                .header(
                        "Location",
                        matchesPattern(
                                "http://[^/]+/youtube/upload/youtube/v3/videos\\?uploadType=resumable&upload_id=[A-Za-z0-9]{32}"))
                .extract()
                .header("Location");

        given().auth()
                .oauth2(token)
                .header("Content-Range", "bytes 0-119999/200000")
                .contentType("video/mp4")
                .body(Arrays.copyOfRange(video, 0, 120_000))
                .put(session)
                .then()
                .statusCode(308)
                .header("Range", equalTo("bytes=0-119999"));
        // Where does it stand? The same answer, and no byte more.
        given().auth()
                .oauth2(token)
                .header("Content-Range", "bytes */200000")
                .put(session)
                .then()
                .statusCode(308)
                .header("Range", equalTo("bytes=0-119999"));
        // A part that does not continue where the session stands is refused.
        given().auth()
                .oauth2(token)
                .header("Content-Range", "bytes 100000-199999/200000")
                .contentType("video/mp4")
                .body(Arrays.copyOfRange(video, 100_000, SIZE))
                .put(session)
                .then()
                .statusCode(400)
                .body("error.errors[0].reason", equalTo("badContent"));

        Response finished = given().auth()
                .oauth2(token)
                .header("Content-Range", "bytes 120000-199999/200000")
                .contentType("video/mp4")
                .body(Arrays.copyOfRange(video, 120_000, SIZE))
                .put(session);
        finished.then()
                .statusCode(200)
                .body("kind", equalTo("youtube#video"))
                .body("id", matchesPattern("[A-Za-z0-9_-]{11}"))
                .body("snippet.title", equalTo("Garden tour"))
                .body("snippet.channelId", equalTo("UCq3HeraldFakeChannel0001"))
                .body("status.privacyStatus", equalTo("unlisted"))
                .body("status.selfDeclaredMadeForKids", equalTo(false))
                .body("bytes", nullValue());
        String id = finished.path("id");
        given().auth()
                .oauth2(token)
                .header("Content-Range", "bytes */200000")
                .put(session)
                .then()
                .statusCode(200)
                .body("id", equalTo(id));

        Map<String, Object> published = given().get("/_fakes/youtube/posts")
                .then()
                .statusCode(200)
                .extract()
                .path("data[0]");
        assertThat(published)
                .containsEntry("id", id)
                .containsEntry("bytes", SIZE)
                .containsEntry("content_type", "video/mp4");
        assertThat(published.get("parts"))
                .isEqualTo(List.of(
                        Map.of("bytes", 120_000, "sha256", sha256(Arrays.copyOfRange(video, 0, 120_000))),
                        Map.of("bytes", 80_000, "sha256", sha256(Arrays.copyOfRange(video, 120_000, SIZE)))));
        List<String> bodies = given().get("/_fakes/youtube/requests")
                .then()
                .extract()
                .jsonPath()
                .getList("data.body");
        assertThat(bodies).contains("<120000 bytes, sha256 " + sha256(Arrays.copyOfRange(video, 0, 120_000)) + ">");
    }

    @Test
    void anUploadWithoutItsLengthOrTitleIsRefusedAndAnUnknownSessionIsNotFound() throws Exception {
        String token = OtherPlatformFakesTest.youtubeUploadToken();
        given().auth()
                .oauth2(token)
                .contentType(ContentType.JSON)
                .header("X-Upload-Content-Type", "video/mp4")
                .queryParams(Map.of("uploadType", "resumable", "part", "snippet,status"))
                .body("{\"snippet\":{\"title\":\"Garden tour\"},\"status\":{\"privacyStatus\":\"private\"}}")
                .post("/youtube/upload/youtube/v3/videos")
                .then()
                .statusCode(400)
                .body("error.errors[0].reason", equalTo("badContent"));
        given().auth()
                .oauth2(token)
                .contentType(ContentType.JSON)
                .header("X-Upload-Content-Length", 10)
                .header("X-Upload-Content-Type", "video/mp4")
                .queryParams(Map.of("uploadType", "resumable", "part", "snippet,status"))
                .body("{\"snippet\":{\"title\":\" \"},\"status\":{\"privacyStatus\":\"private\"}}")
                .post("/youtube/upload/youtube/v3/videos")
                .then()
                .statusCode(400)
                .body("error.errors[0].reason", equalTo("invalidTitle"));
        given().auth()
                .oauth2(token)
                .queryParams(Map.of("uploadType", "resumable", "upload_id", "nope"))
                .header("Content-Range", "bytes */10")
                .put("/youtube/upload/youtube/v3/videos")
                .then()
                .statusCode(404);
    }

    private static String sha256(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }
}
