package dev.herald.fakes;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The failures a test arms through {@code /_fakes/{platform}/failures}, and the token controls. */
@QuarkusTest
class FailureModesTest {
    private static final String MEMBER = "urn:li:person:hF4k3Mbr0q";

    @BeforeEach
    void reset() {
        OAuthDance.resetFakes();
    }

    private static void arm(String platform, String json) {
        given().contentType(ContentType.JSON)
                .body(json)
                .post("/_fakes/" + platform + "/failures")
                .then()
                .statusCode(201);
    }

    @Test
    void aRateLimitAnswers429WithRetryAfterForTheArmedNumberOfMatchingRequests() {
        String token =
                LinkedInFakeTest.connect("openid profile w_member_social").getString("access_token");
        arm(
                "linkedin",
                "{\"kind\":\"rate_limit\",\"method\":\"POST\",\"path\":\"/rest/posts\",\"times\":2,\"retry_after_seconds\":30}");

        for (int i = 0; i < 2; i++) {
            LinkedInFakeTest.createPost(token, MEMBER, "Hi")
                    .then()
                    .statusCode(429)
                    .header("Retry-After", "30")
                    .body("status", equalTo(429))
                    .body("code", equalTo("TOO_MANY_REQUESTS"));
        }
        LinkedInFakeTest.createPost(token, MEMBER, "Hi").then().statusCode(201);

        given().get("/_fakes/linkedin/posts").then().body("data", hasSize(1));
        List<String> failures = given().get("/_fakes/linkedin/requests")
                .then()
                .extract()
                .jsonPath()
                .getList("data.failure");
        assertThat(failures).containsExactly(null, null, "rate_limit", "rate_limit", null);
        given().get("/_fakes/linkedin/failures").then().body("data", hasSize(0));
    }

    @Test
    void aFailureArmedForOnePathLeavesOtherRequestsAlone() {
        String token =
                LinkedInFakeTest.connect("openid profile w_member_social").getString("access_token");
        arm("linkedin", "{\"kind\":\"server_error\",\"method\":\"POST\",\"path\":\"/rest/posts\",\"status\":503}");

        given().auth().oauth2(token).get("/linkedin/v2/userinfo").then().statusCode(200);
        LinkedInFakeTest.createPost(token, MEMBER, "Hi")
                .then()
                .statusCode(503)
                .body("code", equalTo("INTERNAL_SERVER_ERROR"));
        given().get("/_fakes/linkedin/posts").then().body("data", hasSize(0));
    }

    @Test
    void anExpiredTokenIsRefusedUntilRefreshedOnce() {
        JsonPath grant = LinkedInFakeTest.connect("openid profile w_member_social");
        String token = grant.getString("access_token");
        arm("linkedin", "{\"kind\":\"expired_token\",\"path\":\"/rest/posts\"}");

        LinkedInFakeTest.createPost(token, MEMBER, "Hi")
                .then()
                .statusCode(401)
                .body("code", equalTo("EXPIRED_ACCESS_TOKEN"));
        // The token stays expired: the failure was used up, the expiry was not.
        LinkedInFakeTest.createPost(token, MEMBER, "Hi").then().statusCode(401);

        String refreshed = given().formParams(Map.of(
                        "grant_type",
                        "refresh_token",
                        "refresh_token",
                        grant.getString("refresh_token"),
                        "client_id",
                        LinkedInFakeTest.CLIENT,
                        "client_secret",
                        LinkedInFakeTest.SECRET))
                .post("/linkedin/oauth/v2/accessToken")
                .then()
                .statusCode(200)
                .extract()
                .path("access_token");
        LinkedInFakeTest.createPost(refreshed, MEMBER, "Hi").then().statusCode(201);
    }

    @Test
    void aRevokedGrantRefusesItsTokenAndItsRefreshToken() {
        JsonPath grant = LinkedInFakeTest.connect("openid profile w_member_social");
        arm("linkedin", "{\"kind\":\"revoked_token\"}");

        LinkedInFakeTest.createPost(grant.getString("access_token"), MEMBER, "Hi")
                .then()
                .statusCode(401)
                .body("code", equalTo("REVOKED_ACCESS_TOKEN"));
        given().formParams(Map.of(
                        "grant_type",
                        "refresh_token",
                        "refresh_token",
                        grant.getString("refresh_token"),
                        "client_id",
                        LinkedInFakeTest.CLIENT,
                        "client_secret",
                        LinkedInFakeTest.SECRET))
                .post("/linkedin/oauth/v2/accessToken")
                .then()
                .statusCode(400)
                .body("error", equalTo("invalid_grant"));
    }

    @Test
    void theTokenControlsExpireOrRevokeEveryTokenOfThePlatformAtOnce() {
        JsonPath grant = LinkedInFakeTest.connect("openid profile w_member_social");

        given().post("/_fakes/linkedin/tokens/expire").then().statusCode(200).body("data.expired", equalTo(1));
        given().auth()
                .oauth2(grant.getString("access_token"))
                .get("/linkedin/v2/userinfo")
                .then()
                .statusCode(401);

        given().post("/_fakes/linkedin/tokens/revoke").then().statusCode(200).body("data.revoked", equalTo(1));
        given().formParams(Map.of(
                        "grant_type",
                        "refresh_token",
                        "refresh_token",
                        grant.getString("refresh_token"),
                        "client_id",
                        LinkedInFakeTest.CLIENT,
                        "client_secret",
                        LinkedInFakeTest.SECRET))
                .post("/linkedin/oauth/v2/accessToken")
                .then()
                .statusCode(400);
    }

    @Test
    void aDelayedAnswerComesNoEarlierThanArmed() {
        String token =
                LinkedInFakeTest.connect("openid profile w_member_social").getString("access_token");
        arm("linkedin", "{\"kind\":\"delay\",\"path\":\"/v2/userinfo\",\"delay_ms\":700}");

        long started = System.nanoTime();
        given().auth().oauth2(token).get("/linkedin/v2/userinfo").then().statusCode(200);
        long tookMs = (System.nanoTime() - started) / 1_000_000;

        assertThat(tookMs).isGreaterThanOrEqualTo(700);
        started = System.nanoTime();
        given().auth().oauth2(token).get("/linkedin/v2/userinfo").then().statusCode(200);
        assertThat((System.nanoTime() - started) / 1_000_000).isLessThan(700);
    }

    @Test
    void aLostResponseHasPublishedAlthoughTheCallerSawAGatewayTimeout() {
        String token =
                LinkedInFakeTest.connect("openid profile w_member_social").getString("access_token");
        arm("linkedin", "{\"kind\":\"lost_response\",\"method\":\"POST\",\"path\":\"/rest/posts\"}");

        Response answer = LinkedInFakeTest.createPost(token, MEMBER, "Maybe");

        assertThat(answer.statusCode()).isEqualTo(504);
        assertThat(answer.contentType()).startsWith("text/html");
        given().get("/_fakes/linkedin/posts")
                .then()
                .body("data", hasSize(1))
                .body("data[0].commentary", equalTo("Maybe"));
    }

    @Test
    void aProcessingErrorMakesTheInstagramContainerReportError() {
        String token = MetaFakesTest.instagramToken();
        arm("instagram", "{\"kind\":\"processing_error\"}");

        String container = given().auth()
                .oauth2(token)
                .contentType(ContentType.JSON)
                .body("{\"image_url\":\"https://example.com/broken.jpg\",\"caption\":\"Broken\"}")
                .post("/instagram/v24.0/17841400000000001/media")
                .then()
                .statusCode(200)
                .extract()
                .path("id");

        given().auth()
                .oauth2(token)
                .queryParam("fields", "status_code,status")
                .get("/instagram/v24.0/" + container)
                .then()
                .statusCode(200)
                .body("status_code", equalTo("ERROR"));
        given().auth()
                .oauth2(token)
                .contentType(ContentType.JSON)
                .body("{\"creation_id\":\"" + container + "\"}")
                .post("/instagram/v24.0/17841400000000001/media_publish")
                .then()
                .statusCode(400);
        given().get("/_fakes/instagram/posts").then().body("data", hasSize(0));
    }

    @Test
    void aDeniedAuthorizationRedirectsBackWithAccessDenied() {
        arm("linkedin", "{\"kind\":\"deny\"}");

        Map<String, String> back = OAuthDance.authorize(
                "/linkedin/oauth/v2/authorization",
                Map.of(
                        "response_type",
                        "code",
                        "client_id",
                        LinkedInFakeTest.CLIENT,
                        "redirect_uri",
                        LinkedInFakeTest.REDIRECT,
                        "scope",
                        "openid",
                        "state",
                        "s1"));

        assertThat(back)
                .containsEntry("error", "access_denied")
                .containsEntry("state", "s1")
                .doesNotContainKey("code");
    }

    @Test
    void theControlApiRefusesFailuresItCannotArm() {
        given().contentType(ContentType.JSON)
                .body("{\"kind\":\"processing_error\"}")
                .post("/_fakes/linkedin/failures")
                .then()
                .statusCode(422)
                .body("error.code", equalTo("invalid_request"));
        given().contentType(ContentType.JSON)
                .body("{\"kind\":\"delay\"}")
                .post("/_fakes/linkedin/failures")
                .then()
                .statusCode(422);
        given().contentType(ContentType.JSON)
                .body("{\"kind\":\"rate_limit\",\"path\":\"([\"}")
                .post("/_fakes/linkedin/failures")
                .then()
                .statusCode(422);
        given().contentType(ContentType.JSON)
                .body("{\"kind\":\"rate_limit\"}")
                .post("/_fakes/myspace/failures")
                .then()
                .statusCode(404)
                .body("error.code", equalTo("unknown_platform"));
    }
}
