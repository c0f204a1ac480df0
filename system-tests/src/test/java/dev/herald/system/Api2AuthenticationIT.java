package dev.herald.system;

import static dev.herald.system.SecuritySupport.assertError;

import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * OWASP API2:2023, broken authentication. Keys are compared by their SHA-256 (a hash lookup: the database never
 * compares secrets) and the admin token and OAuth client secrets with {@code MessageDigest.isEqual}; those code
 * paths are pinned by the gateway's unit tests (a black-box timing test would be flaky). Here: what a client sees.
 */
class Api2AuthenticationIT {

    @Test
    void api2_aRevokedKeyIsRefusedWithinOneSecondOfItsRevocation() {
        String workspace = RunningSuite.newWorkspace("API2 revocation");
        JsonPath created = RunningSuite.admin()
                .body("{\"mode\":\"live\"}")
                .post("/admin/v1/workspaces/" + workspace + "/api-keys")
                .then()
                .statusCode(201)
                .extract()
                .jsonPath();
        String key = created.getString("data.secret");
        // In use (and so remembered by the gateway) right up to the revocation.
        RunningSuite.as(key).get("/profiles").then().statusCode(200);
        RunningSuite.as(key).get("/profiles").then().statusCode(200);

        RunningSuite.admin()
                .delete("/admin/v1/api-keys/" + created.getString("data.id"))
                .then()
                .statusCode(200);
        long revoked = System.nanoTime();
        Response refused = RunningSuite.as(key).get("/profiles");
        long millis = (System.nanoTime() - revoked) / 1_000_000;
        System.out.printf(
                "API2: the first request after the revocation answered %d, %d ms after it%n",
                refused.statusCode(), millis);
        // The spec's bound is a second. The gateway that revoked the key forgets it at once, so the very first
        // request after the revocation's answer is refused: within the bound however slow the machine is (a
        // wall-clock threshold here would fail on a loaded CI runner, not on a defect).
        assertError(refused, 401, "authentication_failed");
        // And it stays refused.
        assertError(RunningSuite.as(key).get("/usage"), 401, "authentication_failed");
    }

    @Test
    void api2_missingMalformedUnknownAndForgedCredentialsAre401WithTheEnvelope() {
        String key = SecuritySupport.scopedTestKey("API2 credentials");
        String body = key.substring("sk_test_".length());
        String noneJwt =
                Base64.getUrlEncoder().withoutPadding().encodeToString("{\"alg\":\"none\",\"typ\":\"JWT\"}".getBytes())
                        + "."
                        + Base64.getUrlEncoder()
                                .withoutPadding()
                                .encodeToString(("{\"iss\":\"herald\",\"aud\":\"" + RunningSuite.baseUrl()
                                                + "\",\"scope\":\"profiles:read\",\"exp\":9999999999}")
                                        .getBytes())
                        + ".";
        List<String> headers = new ArrayList<>();
        headers.add(null);
        headers.addAll(List.of(
                "",
                "Bearer",
                "Bearer ",
                "Basic " + Base64.getEncoder().encodeToString((key + ":").getBytes()),
                "Token " + key,
                key,
                "Bearer sk_test_",
                "Bearer sk_test_" + body.substring(1),
                "Bearer sk_test_" + body + "0",
                "Bearer sk_live_" + body,
                "Bearer sk_prod_" + body,
                "Bearer sk_test_" + "0".repeat(32),
                "Bearer " + key.toUpperCase(),
                "Bearer " + key + " " + key,
                "Bearer " + noneJwt,
                "Bearer eyJhbGciOi.garbage.x",
                "Bearer " + "A".repeat(8000)));
        SoftAssertions softly = new SoftAssertions();
        for (String authorization : headers) {
            var request = RestAssured.given().baseUri(RunningSuite.baseUrl());
            if (authorization != null) {
                request = request.header("Authorization", authorization);
            }
            String shown = authorization == null
                    ? "no Authorization"
                    : "Authorization: " + authorization.substring(0, Math.min(40, authorization.length()));
            assertError(softly, shown, request.get("/profiles"), 401, "authentication_failed");
        }
        softly.assertAll();
        // The genuine key, for contrast: the list above is refused for what it is, not for the route.
        RunningSuite.as(key).get("/profiles").then().statusCode(200);
    }
}
