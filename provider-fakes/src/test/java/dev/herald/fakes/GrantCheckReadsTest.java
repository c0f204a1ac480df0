package dev.herald.fakes;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;

import dev.herald.fakes.service.FacebookGraphFake;
import dev.herald.fakes.service.InstagramFake;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The reads accounts-service's health check makes, one per platform, as the fakes answer them for a live grant, a
 * revoked one, one stripped of a permission ({@code /_fakes/{platform}/tokens/strip-permission}) and under an armed
 * failure.
 */
@QuarkusTest
class GrantCheckReadsTest {
    /** In the order tokeninfo lists them (the fake sorts them). */
    private static final String YOUTUBE_SCOPES =
            "https://www.googleapis.com/auth/youtube.readonly https://www.googleapis.com/auth/youtube.upload";

    @BeforeEach
    void reset() {
        OAuthDance.resetFakes();
    }

    private static void revoke(String platform) {
        given().post("/_fakes/" + platform + "/tokens/revoke").then().statusCode(200);
    }

    private static void strip(String platform, String scope) {
        given().contentType(ContentType.JSON)
                .body(Map.of("scope", scope))
                .post("/_fakes/" + platform + "/tokens/strip-permission")
                .then()
                .statusCode(200)
                .body("data.stripped", greaterThan(0));
    }

    private static Response tiktokCheck(String token) {
        return given().auth()
                .oauth2(token)
                .contentType(ContentType.JSON)
                .body("{}")
                .post("/tiktok/v2/post/publish/creator_info/query/");
    }

    private static Response youtubeTokenInfo(String token) {
        return given().queryParam("access_token", token).get("/youtube/oauth2/tokeninfo");
    }

    private static Response facebookPermissions(String token) {
        return given().auth().oauth2(token).get("/facebook/v24.0/me/permissions");
    }

    private static Response instagramLimit(String token) {
        return given().queryParam("access_token", token)
                .get("/instagram/v24.0/" + InstagramFake.USER_ID + "/content_publishing_limit");
    }

    private static Response pinterestAccount(String token) {
        return given().auth().oauth2(token).get("/pinterest/v5/user_account");
    }

    private static Response linkedinIntrospection(String token) {
        return given().formParams(Map.of(
                        "client_id",
                        "herald-fake-linkedin-client",
                        "client_secret",
                        "herald-fake-linkedin-secret",
                        "token",
                        token))
                .post("/linkedin/oauth/v2/introspectToken");
    }

    @Test
    void eachCheckReadAnswersALiveGrant() throws Exception {
        tiktokCheck(TikTokAnalyticsFakeTest.token("user.info.basic,video.publish"))
                .then()
                .statusCode(200)
                .body("error.code", equalTo("ok"));
        youtubeTokenInfo(OtherPlatformFakesTest.youtubeToken(YOUTUBE_SCOPES))
                .then()
                .statusCode(200)
                .body("scope", equalTo(YOUTUBE_SCOPES));
        String page = MetaFakesTest.facebookPageToken();
        given().auth()
                .oauth2(page)
                .queryParam("fields", "id")
                .get("/facebook/v24.0/" + FacebookGraphFake.PAGE_ID)
                .then()
                .statusCode(200);
        facebookPermissions(page)
                .then()
                .statusCode(200)
                .body("data.permission", hasItem("pages_manage_posts"))
                .body("data.status", hasItem("granted"));
        instagramLimit(MetaFakesTest.instagramToken()).then().statusCode(200).body("data[0].quota_usage", equalTo(0));
        pinterestAccount(OtherPlatformFakesTest.pinterestToken().getString("access_token"))
                .then()
                .statusCode(200);
        linkedinIntrospection(LinkedInFakeTest.connect("openid profile w_member_social")
                        .getString("access_token"))
                .then()
                .statusCode(200)
                .body("active", equalTo(true))
                .body("status", equalTo("active"))
                .body("scope", equalTo("openid,profile,w_member_social"));
    }

    @Test
    void eachCheckReadRefusesARevokedGrantInThePlatformsOwnWords() throws Exception {
        String tiktok = TikTokAnalyticsFakeTest.token("user.info.basic,video.publish");
        String youtube = OtherPlatformFakesTest.youtubeToken(YOUTUBE_SCOPES);
        String facebook = MetaFakesTest.facebookPageToken();
        String instagram = MetaFakesTest.instagramToken();
        String pinterest = OtherPlatformFakesTest.pinterestToken().getString("access_token");
        String linkedin =
                LinkedInFakeTest.connect("openid profile w_member_social").getString("access_token");
        for (String platform : new String[] {"tiktok", "youtube", "facebook", "instagram", "pinterest", "linkedin"}) {
            revoke(platform);
        }

        tiktokCheck(tiktok).then().statusCode(401).body("error.code", equalTo("access_token_invalid"));
        youtubeTokenInfo(youtube).then().statusCode(400).body("error", equalTo("invalid_token"));
        facebookPermissions(facebook)
                .then()
                .statusCode(400)
                .body("error.code", equalTo(190))
                .body("error.error_subcode", equalTo(458));
        instagramLimit(instagram).then().statusCode(400).body("error.code", equalTo(190));
        pinterestAccount(pinterest).then().statusCode(401).body("code", equalTo(2));
        linkedinIntrospection(linkedin)
                .then()
                .statusCode(200)
                .body("active", equalTo(false))
                .body("status", equalTo("revoked"));
    }

    @Test
    void aStrippedPermissionIsMissingFromEachCheckRead() throws Exception {
        String tiktok = TikTokAnalyticsFakeTest.token("user.info.basic,video.publish");
        String youtube = OtherPlatformFakesTest.youtubeToken(YOUTUBE_SCOPES);
        String facebook = MetaFakesTest.facebookPageToken();
        String instagram = MetaFakesTest.instagramToken();
        String pinterest = OtherPlatformFakesTest.pinterestToken().getString("access_token");
        String linkedin =
                LinkedInFakeTest.connect("openid profile w_member_social").getString("access_token");
        // Facebook: the user token and the Page token it issued are one grant, so both lose it.
        given().contentType(ContentType.JSON)
                .body(Map.of("scope", "pages_manage_posts"))
                .post("/_fakes/facebook/tokens/strip-permission")
                .then()
                .statusCode(200);
        strip("tiktok", "video.publish");
        strip("youtube", "https://www.googleapis.com/auth/youtube.upload");
        strip("instagram", "instagram_business_content_publish");
        strip("pinterest", "user_accounts:read");
        strip("linkedin", "w_member_social");

        tiktokCheck(tiktok).then().statusCode(403).body("error.code", equalTo("scope_not_authorized"));
        youtubeTokenInfo(youtube)
                .then()
                .statusCode(200)
                .body("scope", equalTo("https://www.googleapis.com/auth/youtube.readonly"));
        facebookPermissions(facebook)
                .then()
                .statusCode(200)
                .body("data.permission", not(hasItem("pages_manage_posts")));
        instagramLimit(instagram).then().statusCode(403).body("error.code", equalTo(10));
        pinterestAccount(pinterest).then().statusCode(403).body("code", equalTo(29));
        linkedinIntrospection(linkedin)
                .then()
                .statusCode(200)
                .body("active", equalTo(true))
                .body("scope", equalTo("openid,profile"));
    }

    @Test
    void armedServerErrorsAndDelaysApplyToTheCheckReads() throws Exception {
        String tiktok = TikTokAnalyticsFakeTest.token("user.info.basic,video.publish");
        String linkedin =
                LinkedInFakeTest.connect("openid profile w_member_social").getString("access_token");
        given().contentType(ContentType.JSON)
                .body("{\"kind\":\"server_error\",\"status\":503,\"path\":\"/v2/post/publish/creator_info/query/\"}")
                .post("/_fakes/tiktok/failures")
                .then()
                .statusCode(201);
        given().contentType(ContentType.JSON)
                .body("{\"kind\":\"delay\",\"delay_ms\":300,\"path\":\"/oauth/v2/introspectToken\"}")
                .post("/_fakes/linkedin/failures")
                .then()
                .statusCode(201);

        tiktokCheck(tiktok).then().statusCode(503);
        tiktokCheck(tiktok).then().statusCode(200);
        long started = System.nanoTime();
        linkedinIntrospection(linkedin).then().statusCode(200).body("active", equalTo(true));
        org.assertj.core.api.Assertions.assertThat((System.nanoTime() - started) / 1_000_000)
                .isGreaterThanOrEqualTo(300);
    }
}
