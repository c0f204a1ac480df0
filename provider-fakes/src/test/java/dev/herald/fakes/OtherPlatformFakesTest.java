package dev.herald.fakes;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.matchesPattern;

import dev.herald.fakes.service.PinterestFake;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Pinterest, TikTok and YouTube, the way Herald calls them. */
@QuarkusTest
class OtherPlatformFakesTest {

    @BeforeEach
    void reset() {
        OAuthDance.resetFakes();
    }

    static JsonPath pinterestToken() {
        String redirect = OAuthDance.REDIRECT + "pinterest";
        Map<String, String> back = OAuthDance.authorize(
                "/pinterest/oauth/",
                Map.of(
                        "client_id",
                        "herald-fake-pinterest-client",
                        "redirect_uri",
                        redirect,
                        "response_type",
                        "code",
                        "scope",
                        "boards:read,pins:read,pins:write,user_accounts:read",
                        "state",
                        "p"));
        return given().auth()
                .preemptive()
                .basic("herald-fake-pinterest-client", "herald-fake-pinterest-secret")
                .formParams(Map.of(
                        "grant_type",
                        "authorization_code",
                        "code",
                        back.get("code"),
                        "redirect_uri",
                        redirect,
                        "continuous_refresh",
                        "true"))
                .post("/pinterest/v5/oauth/token")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
    }

    @Test
    void anImagePinIsCreatedOnTheBoardAndListedThere() {
        String token = pinterestToken().getString("access_token");
        given().auth()
                .oauth2(token)
                .get("/pinterest/v5/user_account")
                .then()
                .statusCode(200)
                .body("id", equalTo("1125899906842624"));
        String board = given().auth()
                .oauth2(token)
                .queryParam("page_size", 25)
                .get("/pinterest/v5/boards")
                .then()
                .statusCode(200)
                .extract()
                .path("items[0].id");

        String pin = given().auth()
                .oauth2(token)
                .contentType(ContentType.JSON)
                .body("{\"board_id\":\"" + board + "\",\"title\":\"Soup\",\"description\":\"Weeknight soup\","
                        + "\"media_source\":{\"source_type\":\"image_url\",\"url\":\"https://example.com/soup.jpg\"}}")
                .post("/pinterest/v5/pins")
                .then()
                .statusCode(201)
                .body("id", matchesPattern("[0-9]{18}"))
                .body("board_id", equalTo(board))
                .extract()
                .path("id");

        given().auth()
                .oauth2(token)
                .queryParam("page_size", 20)
                .get("/pinterest/v5/boards/" + board + "/pins")
                .then()
                .statusCode(200)
                .body("items", hasSize(1))
                .body("items[0].id", equalTo(pin))
                .body("items[0].description", equalTo("Weeknight soup"));
        given().auth()
                .oauth2(token)
                .contentType(ContentType.JSON)
                .body(
                        "{\"board_id\":\"42\",\"media_source\":{\"source_type\":\"image_url\",\"url\":\"https://example.com/a.jpg\"}}")
                .post("/pinterest/v5/pins")
                .then()
                .statusCode(404)
                .body("code", equalTo(3));
    }

    @Test
    void aVideoPinNeedsItsRegisteredUploadToHaveArrivedAsAForm() {
        String token = pinterestToken().getString("access_token");
        JsonPath registered = given().auth()
                .oauth2(token)
                .contentType(ContentType.JSON)
                .body("{\"media_type\":\"video\"}")
                .post("/pinterest/v5/media")
                .then()
                .statusCode(201)
                .extract()
                .jsonPath();
        String mediaId = registered.getString("media_id");
        assertThat(registered.getString("upload_url"))
                .matches("^http://[^/]+/pinterest/media-uploads/" + mediaId + "$");
        assertThat(registered.getMap("upload_parameters")).containsKeys("key", "policy", "x-amz-signature");
        String videoPin = "{\"board_id\":\"" + PinterestFake.BOARD_ID + "\",\"description\":\"Clip\",\"media_source\":"
                + "{\"source_type\":\"video_id\",\"media_id\":\"" + mediaId + "\",\"cover_image_key_frame_time\":1}}";
        given().auth()
                .oauth2(token)
                .get("/pinterest/v5/media/" + mediaId)
                .then()
                .statusCode(200)
                .body("status", equalTo("registered"));
        given().auth()
                .oauth2(token)
                .contentType(ContentType.JSON)
                .body(videoPin)
                .post("/pinterest/v5/pins")
                .then()
                .statusCode(400);

        given().multiPart("key", "uploads/" + mediaId + ".mp4")
                .multiPart("file", "clip.mp4", new byte[300_000], "video/mp4")
                .post(java.net.URI.create(registered.getString("upload_url")).getPath())
                .then()
                .statusCode(204);

        given().auth()
                .oauth2(token)
                .get("/pinterest/v5/media/" + mediaId)
                .then()
                .statusCode(200)
                .body("status", equalTo("succeeded"));
        given().auth()
                .oauth2(token)
                .contentType(ContentType.JSON)
                .body(videoPin)
                .post("/pinterest/v5/pins")
                .then()
                .statusCode(201)
                .body("media.media_type", equalTo("video"))
                .body("media.media_id", equalTo(mediaId));
        given().get("/_fakes/pinterest/posts").then().statusCode(200).body("data[0].media.media_id", equalTo(mediaId));
    }

    @Test
    void continuousRefreshRotatesThePinterestRefreshToken() {
        String refreshToken = pinterestToken().getString("refresh_token");
        Map<String, String> form =
                Map.of("grant_type", "refresh_token", "refresh_token", refreshToken, "continuous_refresh", "true");

        String rotated = given().auth()
                .preemptive()
                .basic("herald-fake-pinterest-client", "herald-fake-pinterest-secret")
                .formParams(form)
                .post("/pinterest/v5/oauth/token")
                .then()
                .statusCode(200)
                .extract()
                .path("refresh_token");

        assertThat(rotated).startsWith("pinr_").isNotEqualTo(refreshToken);
        given().auth()
                .preemptive()
                .basic("herald-fake-pinterest-client", "herald-fake-pinterest-secret")
                .formParams(form)
                .post("/pinterest/v5/oauth/token")
                .then()
                .statusCode(400);
    }

    @Test
    void tiktokTokensReadTheCreatorAndRefreshIntoANewRefreshToken() {
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
        JsonPath token = given().formParams(Map.of(
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
                .jsonPath();
        assertThat(token.getString("open_id")).isEqualTo("-000Fk3OpenIdHeraldFakeCreator01");

        given().auth()
                .oauth2(token.getString("access_token"))
                .queryParam("fields", "open_id,display_name,username")
                .get("/tiktok/v2/user/info/")
                .then()
                .statusCode(200)
                .body("error.code", equalTo("ok"))
                .body("data.user.username", equalTo("heraldfake.dance"));
        given().auth()
                .oauth2(token.getString("access_token"))
                .contentType(ContentType.JSON)
                .body("{}")
                .post("/tiktok/v2/post/publish/creator_info/query/")
                .then()
                .statusCode(200)
                .body("data.max_video_post_duration_sec", equalTo(600));
        String rotated = given().formParams(Map.of(
                        "client_key",
                        "herald-fake-tiktok-client",
                        "client_secret",
                        "herald-fake-tiktok-secret",
                        "grant_type",
                        "refresh_token",
                        "refresh_token",
                        token.getString("refresh_token")))
                .post("/tiktok/v2/oauth/token/")
                .then()
                .statusCode(200)
                .extract()
                .path("refresh_token");
        assertThat(rotated).startsWith("rft.").isNotEqualTo(token.getString("refresh_token"));
        // The old refresh token is spent: TikTok refuses with HTTP 200 and an error body.
        given().formParams(Map.of(
                        "client_key",
                        "herald-fake-tiktok-client",
                        "client_secret",
                        "herald-fake-tiktok-secret",
                        "grant_type",
                        "refresh_token",
                        "refresh_token",
                        token.getString("refresh_token")))
                .post("/tiktok/v2/oauth/token/")
                .then()
                .statusCode(200)
                .body("error", equalTo("invalid_grant"));
    }

    private static final String YOUTUBE_VERIFIER = "a-verifier-of-at-least-forty-three-characters-long-0123456789";

    /** Google's authorization request as accounts-service makes it (PKCE S256, offline access). */
    static Map<String, String> youtubeAuthorization(String scope) throws Exception {
        String challenge = Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(MessageDigest.getInstance("SHA-256")
                        .digest(YOUTUBE_VERIFIER.getBytes(StandardCharsets.US_ASCII)));
        return Map.of(
                "client_id",
                "herald-fake-youtube-client",
                "redirect_uri",
                OAuthDance.REDIRECT + "youtube",
                "response_type",
                "code",
                "scope",
                scope,
                "state",
                "y",
                "code_challenge",
                challenge,
                "code_challenge_method",
                "S256",
                "access_type",
                "offline");
    }

    /** A YouTube grant: authorized at the fake's page, the code redeemed with the verifier. */
    static JsonPath youtubeToken(Map<String, String> authorization, String verifier) {
        String code =
                OAuthDance.authorize("/youtube/o/oauth2/v2/auth", authorization).get("code");
        return given().formParams(Map.of(
                        "client_id",
                        "herald-fake-youtube-client",
                        "client_secret",
                        "herald-fake-youtube-secret",
                        "code",
                        code,
                        "code_verifier",
                        verifier,
                        "grant_type",
                        "authorization_code",
                        "redirect_uri",
                        authorization.get("redirect_uri")))
                .post("/youtube/oauth2/token")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
    }

    static String youtubeUploadToken() throws Exception {
        return youtubeToken("https://www.googleapis.com/auth/youtube.upload");
    }

    /** A YouTube access token granting {@code scope} (space-separated, as Google takes it). */
    static String youtubeToken(String scope) throws Exception {
        return youtubeToken(youtubeAuthorization(scope), YOUTUBE_VERIFIER).getString("access_token");
    }

    @Test
    void youtubeChecksThePkceVerifierAndListsTheChannel() throws Exception {
        String redirect = OAuthDance.REDIRECT + "youtube";
        String verifier = YOUTUBE_VERIFIER;
        Map<String, String> authorization =
                youtubeAuthorization("openid https://www.googleapis.com/auth/youtube.readonly");
        String wrongCode =
                OAuthDance.authorize("/youtube/o/oauth2/v2/auth", authorization).get("code");
        given().formParams(Map.of(
                        "client_id",
                        "herald-fake-youtube-client",
                        "client_secret",
                        "herald-fake-youtube-secret",
                        "code",
                        wrongCode,
                        "code_verifier",
                        verifier + "x",
                        "grant_type",
                        "authorization_code",
                        "redirect_uri",
                        redirect))
                .post("/youtube/oauth2/token")
                .then()
                .statusCode(400)
                .body("error", equalTo("invalid_grant"));

        JsonPath token = youtubeToken(authorization, verifier);
        assertThat(token.getString("refresh_token")).startsWith("1//0");
        assertThat(token.getString("id_token")).isNotBlank();

        given().auth()
                .oauth2(token.getString("access_token"))
                .queryParams(Map.of("part", "snippet", "mine", "true"))
                .get("/youtube/youtube/v3/channels")
                .then()
                .statusCode(200)
                .body("items[0].id", equalTo("UCq3HeraldFakeChannel0001"));
        given().formParams(Map.of("token", token.getString("refresh_token")))
                .post("/youtube/oauth2/revoke")
                .then()
                .statusCode(200);
        given().auth()
                .oauth2(token.getString("access_token"))
                .queryParams(Map.of("part", "snippet", "mine", "true"))
                .get("/youtube/youtube/v3/channels")
                .then()
                .statusCode(401)
                .body("error.status", equalTo("UNAUTHENTICATED"));
    }
}
