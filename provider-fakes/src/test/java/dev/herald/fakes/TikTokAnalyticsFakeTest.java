package dev.herald.fakes;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.fakes.service.TikTokFake;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * TikTok's analytics in the fake: Query Videos under {@code video.list} and Get User Info's counts under
 * {@code user.info.stats}, for a video published through Direct Post, with the documented numbers.
 */
@QuarkusTest
class TikTokAnalyticsFakeTest {
    private static final int SIZE = 1000;
    private static final String QUERY_FIELDS = "id,like_count,comment_count,share_count,view_count";

    @BeforeEach
    void reset() {
        OAuthDance.resetFakes();
    }

    static String token(String scopes) {
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
                        scopes,
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

    /** A public video posted whole through Direct Post; its post id. */
    private static String published(String token) {
        JsonPath started = given().auth()
                .oauth2(token)
                .contentType("application/json; charset=UTF-8")
                .body("""
                        {"post_info":{"title":"Numbers day","privacy_level":"PUBLIC_TO_EVERYONE"},
                         "source_info":{"source":"FILE_UPLOAD","video_size":%d,"chunk_size":%d,"total_chunk_count":1}}""".formatted(SIZE, SIZE))
                .post("/tiktok/v2/post/publish/video/init/")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        given().contentType("video/mp4")
                .header("Content-Range", "bytes 0-" + (SIZE - 1) + "/" + SIZE)
                .body(new byte[SIZE])
                .put(started.getString("data.upload_url"))
                .then()
                .statusCode(201);
        String body = "{\"publish_id\":\"" + started.getString("data.publish_id") + "\"}";
        for (int fetch = 0; fetch < 2; fetch++) {
            JsonPath status = given().auth()
                    .oauth2(token)
                    .contentType(ContentType.JSON)
                    .body(body)
                    .post("/tiktok/v2/post/publish/status/fetch/")
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath();
            if ("PUBLISH_COMPLETE".equals(status.getString("data.status"))) {
                return status.getList("data.publicaly_available_post_id").get(0).toString();
            }
        }
        throw new AssertionError("the video was not published");
    }

    private static long seed(String id) throws Exception {
        byte[] digest = MessageDigest.getInstance("SHA-256").digest(id.getBytes(StandardCharsets.UTF_8));
        return Long.parseLong(HexFormat.of().formatHex(digest, 0, 4), 16);
    }

    /** view_count as documented, for {@code minutes} since publication. */
    private static long views(String id, long minutes) throws Exception {
        long s = seed(id);
        return s % 1000 + minutes * (1 + s % 10);
    }

    @Test
    void queryVideosAnswersThePublishedVideosCountsAndLeavesOutIdsItDoesNotKnow() throws Exception {
        String token = token("user.info.basic,video.list,video.publish");
        String id = published(token);
        long createTime =
                given().get("/_fakes/tiktok/posts").then().extract().jsonPath().getLong("data[0].create_time");

        JsonPath answer = given().auth()
                .oauth2(token)
                .contentType("application/json; charset=UTF-8")
                .queryParam("fields", QUERY_FIELDS)
                .body("{\"filters\":{\"video_ids\":[\"" + id + "\",\"7000000000000000001\"]}}")
                .post("/tiktok/v2/video/query/")
                .then()
                .statusCode(200)
                .body("error.code", equalTo("ok"))
                .body("data.has_more", equalTo(false))
                .extract()
                .jsonPath();
        long minutes = (Instant.now().getEpochSecond() - createTime) / 60;

        List<Map<String, Object>> videos = answer.getList("data.videos");
        assertThat(videos).hasSize(1);
        Map<String, Object> video = videos.get(0);
        assertThat(video.keySet())
                .containsExactlyInAnyOrder("id", "like_count", "comment_count", "share_count", "view_count");
        assertThat(video.get("id")).isEqualTo(id);
        long views = ((Number) video.get("view_count")).longValue();
        assertThat(views).isIn(views(id, minutes), views(id, Math.max(0, minutes - 1)));
        assertThat(((Number) video.get("like_count")).longValue()).isEqualTo(views / 12);
        assertThat(((Number) video.get("comment_count")).longValue()).isEqualTo(views / 60);
        assertThat(((Number) video.get("share_count")).longValue()).isEqualTo(views / 90);
    }

    @Test
    void theCountsGrowWithTheMinutesSincePublication() throws Exception {
        String id = "7311111111111111111";
        ObjectNode item = new ObjectMapper().createObjectNode().put("id", id).put("create_time", 1_764_000_000L);
        Instant published = Instant.ofEpochSecond(1_764_000_000L);

        ObjectNode atOnce = TikTokFake.videoCounts(item, published.plusSeconds(59), new ObjectMapper());
        ObjectNode hourLater = TikTokFake.videoCounts(item, published.plusSeconds(3600), new ObjectMapper());

        assertThat(atOnce.get("view_count").asLong()).isEqualTo(views(id, 0));
        assertThat(hourLater.get("view_count").asLong())
                .isEqualTo(views(id, 60))
                .isEqualTo(views(id, 0) + 60 * (1 + seed(id) % 10));
        assertThat(hourLater.get("like_count").asLong()).isEqualTo(views(id, 60) / 12);
        assertThat(hourLater.get("comment_count").asLong()).isEqualTo(views(id, 60) / 60);
        assertThat(hourLater.get("share_count").asLong()).isEqualTo(views(id, 60) / 90);
    }

    @Test
    void userInfoCountsAreThePublishedVideosSums() throws Exception {
        String token = token("user.info.basic,user.info.stats,video.list,video.publish");
        String id = published(token);

        JsonPath user = given().auth()
                .oauth2(token)
                .queryParam("fields", "open_id,follower_count,following_count,likes_count,video_count")
                .get("/tiktok/v2/user/info/")
                .then()
                .statusCode(200)
                .body("error.code", equalTo("ok"))
                .extract()
                .jsonPath();
        long views = views(id, 0);
        assertThat(user.getMap("data.user"))
                .containsOnlyKeys("open_id", "follower_count", "following_count", "likes_count", "video_count");
        assertThat(user.getString("data.user.open_id")).isEqualTo("-000Fk3OpenIdHeraldFakeCreator01");
        assertThat(user.getLong("data.user.follower_count")).isEqualTo(1200 + views / 20);
        assertThat(user.getLong("data.user.following_count")).isEqualTo(87);
        assertThat(user.getLong("data.user.likes_count")).isEqualTo(views / 12);
        assertThat(user.getLong("data.user.video_count")).isEqualTo(1);
    }

    @Test
    void withoutTheirScopesBothAreRefusedScopeNotAuthorized() {
        String token = token("user.info.basic,video.publish");

        given().auth()
                .oauth2(token)
                .contentType(ContentType.JSON)
                .queryParam("fields", QUERY_FIELDS)
                .body("{\"filters\":{\"video_ids\":[\"7000000000000000001\"]}}")
                .post("/tiktok/v2/video/query/")
                .then()
                .statusCode(401)
                .body("error.code", equalTo("scope_not_authorized"))
                .body("data", equalTo(Map.of()));
        given().auth()
                .oauth2(token)
                .queryParam("fields", "follower_count,following_count,likes_count,video_count")
                .get("/tiktok/v2/user/info/")
                .then()
                .statusCode(401)
                .body("error.code", equalTo("scope_not_authorized"));
        // The basic fields still need only user.info.basic.
        given().auth()
                .oauth2(token)
                .queryParam("fields", "open_id,display_name")
                .get("/tiktok/v2/user/info/")
                .then()
                .statusCode(200)
                .body("data.user.display_name", equalTo("Herald Fake Dance"));
    }

    @Test
    void queryVideosRefusesWhatTikTokRefuses() {
        String token = token("user.info.basic,video.list");

        given().auth()
                .oauth2(token)
                .contentType(ContentType.JSON)
                .queryParam("fields", QUERY_FIELDS)
                .body("{\"filters\":{\"video_ids\":[]}}")
                .post("/tiktok/v2/video/query/")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("invalid_params"));
        given().auth()
                .oauth2(token)
                .contentType(ContentType.JSON)
                .queryParam("fields", "id,play_count")
                .body("{\"filters\":{\"video_ids\":[\"7000000000000000001\"]}}")
                .post("/tiktok/v2/video/query/")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("invalid_params"));
        given().auth()
                .oauth2("act.not-a-token")
                .contentType(ContentType.JSON)
                .queryParam("fields", QUERY_FIELDS)
                .body("{\"filters\":{\"video_ids\":[\"7000000000000000001\"]}}")
                .post("/tiktok/v2/video/query/")
                .then()
                .statusCode(401)
                .body("error.code", equalTo("access_token_invalid"));
        given().auth()
                .oauth2(token)
                .contentType(ContentType.JSON)
                .queryParam("fields", QUERY_FIELDS)
                .body("{\"filters\":{\"video_ids\":[\"7000000000000000001\"]}}")
                .post("/tiktok/v2/video/query/")
                .then()
                .statusCode(200)
                .body("data.videos", empty());
    }
}
