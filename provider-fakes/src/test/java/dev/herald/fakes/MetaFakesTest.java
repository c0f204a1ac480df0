package dev.herald.fakes;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.matchesPattern;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Facebook Pages and Instagram, the way Herald's accounts-service and delivery-worker call them. */
@QuarkusTest
class MetaFakesTest {
    static final String FACEBOOK_REDIRECT = OAuthDance.REDIRECT + "facebook";
    static final String INSTAGRAM_REDIRECT = OAuthDance.REDIRECT + "instagram";

    @BeforeEach
    void reset() {
        OAuthDance.resetFakes();
    }

    /** Facebook Login's manual flow up to the Page token. */
    static String facebookPageToken() {
        return facebookPageToken("pages_show_list,pages_read_engagement,pages_manage_posts");
    }

    /** The same, granting {@code scope}. */
    static String facebookPageToken(String scope) {
        Map<String, String> back = OAuthDance.authorize(
                "/facebook/v24.0/dialog/oauth",
                Map.of(
                        "client_id",
                        "herald-fake-facebook-client",
                        "redirect_uri",
                        FACEBOOK_REDIRECT,
                        "response_type",
                        "code",
                        "scope",
                        scope,
                        "state",
                        "fb"));
        String shortLived = given().queryParams(Map.of(
                        "client_id",
                        "herald-fake-facebook-client",
                        "client_secret",
                        "herald-fake-facebook-secret",
                        "redirect_uri",
                        FACEBOOK_REDIRECT,
                        "code",
                        back.get("code")))
                .get("/facebook/v24.0/oauth/access_token")
                .then()
                .statusCode(200)
                .extract()
                .path("access_token");
        String longLived = given().queryParams(Map.of(
                        "grant_type",
                        "fb_exchange_token",
                        "client_id",
                        "herald-fake-facebook-client",
                        "client_secret",
                        "herald-fake-facebook-secret",
                        "fb_exchange_token",
                        shortLived))
                .get("/facebook/v24.0/oauth/access_token")
                .then()
                .statusCode(200)
                .body("expires_in", equalTo(5_184_000))
                .extract()
                .path("access_token");
        given().header("Authorization", "Bearer " + longLived)
                .queryParam("fields", "id,permissions")
                .get("/facebook/v24.0/me")
                .then()
                .statusCode(200)
                .body("id", equalTo("10229876543210987"))
                .body("permissions.data.permission", org.hamcrest.Matchers.hasItem("pages_manage_posts"));
        return given().header("Authorization", "Bearer " + longLived)
                .queryParams(Map.of("fields", "id,name,username,access_token", "limit", "100"))
                .get("/facebook/v24.0/me/accounts")
                .then()
                .statusCode(200)
                .body("data[0].id", equalTo("108765432109876"))
                .extract()
                .path("data[0].access_token");
    }

    @Test
    void aPageTokenPostsToTheFeedAndTheFeedListsIt() {
        String pageToken = facebookPageToken();

        String id = given().header("Authorization", "Bearer " + pageToken)
                .formParams(Map.of("message", "Fresh bread at 7", "link", "https://example.com/bread"))
                .post("/facebook/v24.0/108765432109876/feed")
                .then()
                .statusCode(200)
                .body("id", matchesPattern("108765432109876_[0-9]{16}"))
                .extract()
                .path("id");
        given().header("Authorization", "Bearer " + pageToken)
                .formParams(Map.of("url", "https://example.com/loaf.jpg", "message", "A loaf"))
                .post("/facebook/v24.0/108765432109876/photos")
                .then()
                .statusCode(200)
                .body("id", matchesPattern("[0-9]{16}"))
                .body("post_id", matchesPattern("108765432109876_[0-9]{16}"));

        given().header("Authorization", "Bearer " + pageToken)
                .queryParams(Map.of("fields", "id,message,created_time", "limit", "5"))
                .get("/facebook/v24.0/108765432109876/feed")
                .then()
                .statusCode(200)
                .body("data", hasSize(2))
                .body("data[1].id", equalTo(id))
                .body("data[1].message", equalTo("Fresh bread at 7"));
    }

    @Test
    void anUnknownGraphTokenIsOAuthException190() {
        given().header("Authorization", "Bearer EAAGnotIssued")
                .formParams(Map.of("message", "x"))
                .post("/facebook/v24.0/108765432109876/feed")
                .then()
                .statusCode(400)
                .body("error.code", equalTo(190))
                .body("error.type", equalTo("OAuthException"));
    }

    @Test
    void revokingTheUsersPermissionsKillsThePageTokenToo() {
        String pageToken = facebookPageToken();

        given().header("Authorization", "Bearer " + pageToken)
                .delete("/facebook/v24.0/me/permissions")
                .then()
                .statusCode(200)
                .body("success", equalTo(true));

        given().header("Authorization", "Bearer " + pageToken)
                .formParams(Map.of("message", "x"))
                .post("/facebook/v24.0/108765432109876/feed")
                .then()
                .statusCode(400)
                .body("error.code", equalTo(190))
                .body("error.error_subcode", equalTo(458));
    }

    /** Instagram Login: code, short-lived token, long-lived token. */
    static String instagramToken() {
        return instagramToken("instagram_business_basic,instagram_business_content_publish");
    }

    /** The same, granting {@code scope}. */
    static String instagramToken(String scope) {
        Map<String, String> back = OAuthDance.authorize(
                "/instagram/oauth/authorize",
                Map.of(
                        "client_id",
                        "herald-fake-instagram-client",
                        "redirect_uri",
                        INSTAGRAM_REDIRECT,
                        "response_type",
                        "code",
                        "scope",
                        scope,
                        "state",
                        "ig"));
        JsonPath shortLived = given().formParams(Map.of(
                        "client_id",
                        "herald-fake-instagram-client",
                        "client_secret",
                        "herald-fake-instagram-secret",
                        "grant_type",
                        "authorization_code",
                        "redirect_uri",
                        INSTAGRAM_REDIRECT,
                        "code",
                        back.get("code")))
                .post("/instagram/oauth/access_token")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(shortLived.getString("data[0].user_id")).isEqualTo("17841400000000001");
        return given().queryParams(Map.of(
                        "grant_type",
                        "ig_exchange_token",
                        "client_secret",
                        "herald-fake-instagram-secret",
                        "access_token",
                        shortLived.getString("data[0].access_token")))
                .get("/instagram/access_token")
                .then()
                .statusCode(200)
                .extract()
                .path("access_token");
    }

    @Test
    void anImageGoesThroughAContainerToAPublishedMediaWithAPermalink() {
        String token = instagramToken();
        given().queryParams(Map.of("fields", "id,user_id,username,name,account_type", "access_token", token))
                .get("/instagram/v24.0/me")
                .then()
                .statusCode(200)
                .body("user_id", equalTo("17841400000000001"));

        String container = given().header("Authorization", "Bearer " + token)
                .contentType(ContentType.JSON)
                .body("{\"image_url\":\"https://example.com/cake.jpg\",\"caption\":\"Cake day\"}")
                .post("/instagram/v24.0/17841400000000001/media")
                .then()
                .statusCode(200)
                .extract()
                .path("id");
        given().header("Authorization", "Bearer " + token)
                .queryParam("fields", "status_code,status")
                .get("/instagram/v24.0/" + container)
                .then()
                .statusCode(200)
                .body("status_code", equalTo("FINISHED"));
        String media = given().header("Authorization", "Bearer " + token)
                .contentType(ContentType.JSON)
                .body("{\"creation_id\":\"" + container + "\"}")
                .post("/instagram/v24.0/17841400000000001/media_publish")
                .then()
                .statusCode(200)
                .extract()
                .path("id");
        given().header("Authorization", "Bearer " + token)
                .queryParam("fields", "permalink")
                .get("/instagram/v24.0/" + media)
                .then()
                .statusCode(200)
                .body("permalink", matchesPattern("https://www\\.instagram\\.com/p/C[A-Za-z0-9_-]{10}/"));

        given().header("Authorization", "Bearer " + token)
                .queryParams(Map.of("fields", "id,caption,permalink,timestamp", "limit", "25"))
                .get("/instagram/v24.0/17841400000000001/media")
                .then()
                .statusCode(200)
                .body("data", hasSize(1))
                .body("data[0].id", equalTo(media))
                .body("data[0].caption", equalTo("Cake day"));
        // Publishing the same container twice is refused: it is PUBLISHED now.
        given().header("Authorization", "Bearer " + token)
                .contentType(ContentType.JSON)
                .body("{\"creation_id\":\"" + container + "\"}")
                .post("/instagram/v24.0/17841400000000001/media_publish")
                .then()
                .statusCode(400)
                .body("error.code", equalTo(9007));
    }

    @Test
    void anInstagramTokenIsRenewedByRefreshAccessToken() {
        String token = instagramToken();

        String renewed = given().queryParams(Map.of("grant_type", "ig_refresh_token", "access_token", token))
                .get("/instagram/refresh_access_token")
                .then()
                .statusCode(200)
                .body("expires_in", equalTo(5_184_000))
                .extract()
                .path("access_token");

        assertThat(renewed).startsWith("IGAA").isNotEqualTo(token);
        given().queryParams(Map.of("fields", "id,user_id", "access_token", renewed))
                .get("/instagram/v24.0/me")
                .then()
                .statusCode(200);
    }
}
