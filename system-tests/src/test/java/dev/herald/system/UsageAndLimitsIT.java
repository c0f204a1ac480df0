package dev.herald.system;

import static dev.herald.system.RunningSuite.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;

import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;

/** Plans, meters and limits as a customer meets them: through the gateway, with the real usage-service. */
class UsageAndLimitsIT {

    private static JsonPath usage(String key) {
        return as(key).get("/usage").then().statusCode(200).extract().jsonPath();
    }

    private static void putPlan(String workspace, String mode, String plan, String source) {
        RunningSuite.admin()
                .body("{\"mode\":\"" + mode + "\",\"plan\":\"" + plan + "\",\"plan_source\":\"" + source + "\"}")
                .put("/admin/v1/workspaces/" + workspace + "/plan")
                .then()
                .statusCode(200)
                .body("data.mode", equalTo(mode));
    }

    private static void awaitFreshMinute() throws InterruptedException {
        int second = Instant.now().atOffset(ZoneOffset.UTC).getSecond();
        if (second > 45) {
            Thread.sleep((61 - second) * 1000L);
        }
    }

    @Test
    void theThirtyFirstRequestInAMinuteOnTheFreePlanIsRefusedEvenOnAnExemptRoute() throws Exception {
        String key = RunningSuite.newKey(RunningSuite.newWorkspace("Rate"), "live");
        awaitFreshMinute();
        long reset = Instant.now()
                .truncatedTo(ChronoUnit.MINUTES)
                .plus(1, ChronoUnit.MINUTES)
                .getEpochSecond();
        for (int i = 1; i <= 30; i++) {
            as(key).get("/profiles")
                    .then()
                    .statusCode(200)
                    .header("X-RateLimit-Limit", "30")
                    .header("X-RateLimit-Remaining", Integer.toString(30 - i))
                    .header("X-RateLimit-Reset", Long.toString(reset));
        }
        as(key).get("/profiles")
                .then()
                .statusCode(429)
                .body("error.code", equalTo("rate_limit_exceeded"))
                .body("error.details.limit", equalTo(30))
                .header("Retry-After", notNullValue())
                .header("X-RateLimit-Remaining", "0")
                .header("X-RateLimit-Reset", Long.toString(reset));
    }

    @Test
    void usageIsExactAndASpentAllowanceRefusesEveryRequestUntilReset() {
        String workspace = RunningSuite.newWorkspace("Allowance");
        String key = RunningSuite.newKey(workspace, "live");
        putPlan(workspace, "live", "starter", "comp");

        JsonPath first = usage(key);
        assertThat(first.getString("data.plan")).isEqualTo("starter");
        assertThat(first.getString("data.plan_source")).isEqualTo("comp");
        assertThat(first.getString("data.catalog_version")).isEqualTo("2026-09");
        assertThat(first.getInt("data.rate_limit.per_minute")).isEqualTo(60);
        assertThat(first.getMap("data.accounts"))
                .containsEntry("used", 0)
                .containsEntry("limit", 10)
                .containsEntry("remaining", 10);
        assertThat(first.getMap("data.publications"))
                .containsEntry("used", 0)
                .containsEntry("reserved", 0)
                .containsEntry("limit", 300)
                .containsEntry("remaining", 300);
        assertThat(first.getMap("data.api_requests"))
                .containsEntry("used", 1)
                .containsEntry("reserved", 0)
                .containsEntry("limit", RunningSuite.STARTER_API_REQUESTS)
                .containsEntry("remaining", 4);
        String periodEnd = first.getString("data.period.end");
        assertThat(first.getString("data.reset_at")).isEqualTo(periodEnd);

        as(key).get("/profiles/prf_000000000000000000000000").then().statusCode(404); // exempt: not counted
        assertThat(usage(key).getInt("data.api_requests.used")).isEqualTo(2);
        assertThat(usage(key).getInt("data.api_requests.used")).isEqualTo(3);
        assertThat(usage(key).getInt("data.api_requests.used")).isEqualTo(4);
        JsonPath last = usage(key);
        assertThat(last.getMap("data.api_requests")).containsEntry("used", 5).containsEntry("remaining", 0);

        as(key).get("/usage")
                .then()
                .statusCode(429)
                .body("error.code", equalTo("usage_limit_exceeded"))
                .body("error.details.metric", equalTo("api_requests"))
                .body("error.details.mode", equalTo("live"))
                .body("error.details.plan", equalTo("starter"))
                .body("error.details.limit", equalTo(5))
                .body("error.details.used", equalTo(5))
                .body("error.details.remaining", equalTo(0))
                .body("error.details.reset_at", equalTo(periodEnd))
                .header("Retry-After", notNullValue());
        as(key).get("/profiles").then().statusCode(429).body("error.code", equalTo("usage_limit_exceeded"));
        // The other mode has its own allowance.
        as(RunningSuite.newKey(workspace, "test")).get("/profiles").then().statusCode(200);
    }

    @Test
    void failedAuthenticationAndMissingScopesAreNotCounted() {
        String workspace = RunningSuite.newWorkspace("Not counted");
        String key = RunningSuite.newKey(workspace, "live");
        String readOnly = RunningSuite.newKey(workspace, "live", "profiles:read");
        assertThat(usage(key).getInt("data.api_requests.used")).isEqualTo(1);
        RunningSuite.as("sk_live_" + "0".repeat(32)).get("/usage").then().statusCode(401);
        as(readOnly).get("/posts").then().statusCode(403);
        as(readOnly)
                .contentType(ContentType.JSON)
                .body("{\"name\":\"x\"}")
                .post("/profiles")
                .then()
                .statusCode(403);
        assertThat(usage(key).getInt("data.api_requests.used")).isEqualTo(2);
    }

    @Test
    void anUpgradeRaisesLimitsAtOnceAndADowngradeWaitsForRenewal() {
        String workspace = RunningSuite.newWorkspace("Plans");
        String key = RunningSuite.newKey(workspace, "live");
        as(key).get("/profiles").then().statusCode(200).header("X-RateLimit-Limit", "30");
        putPlan(workspace, "live", "growth", "subscription");
        as(key).get("/profiles").then().statusCode(200).header("X-RateLimit-Limit", "120");
        assertThat(usage(key).getString("data.plan")).isEqualTo("growth");

        putPlan(workspace, "live", "starter", "subscription");
        JsonPath afterDowngrade = usage(key);
        assertThat(afterDowngrade.getString("data.plan")).isEqualTo("growth");
        assertThat(afterDowngrade.getInt("data.api_requests.limit")).isEqualTo(100_000);
        as(key).get("/profiles").then().statusCode(200).header("X-RateLimit-Limit", "120");
    }

    @Test
    void anOAuthAccessTokenBoundToThisApiWorksLikeAKey() {
        String workspace = RunningSuite.newWorkspace("OAuth");
        JsonPath client = RunningSuite.admin()
                .body("{\"mode\":\"test\",\"scopes\":[\"profiles:read\",\"profiles:write\"]}")
                .post("/admin/v1/workspaces/" + workspace + "/oauth-clients")
                .then()
                .statusCode(201)
                .extract()
                .jsonPath();
        String gateway = RunningSuite.get().gatewayUrl();
        String token = RestAssured.given()
                .baseUri(gateway)
                .auth()
                .preemptive()
                .basic(client.getString("data.client_id"), client.getString("data.client_secret"))
                .contentType(ContentType.URLENC)
                .formParam("grant_type", "client_credentials")
                .formParam("resource", RunningSuite.baseUrl())
                .post("/oauth/token")
                .then()
                .statusCode(200)
                .extract()
                .path("access_token");
        String id = as(token)
                .contentType(ContentType.JSON)
                .body("{\"name\":\"Via OAuth\"}")
                .post("/profiles")
                .then()
                .statusCode(201)
                .extract()
                .path("data.id");
        String key = RunningSuite.newKey(workspace, "test");
        as(key).get("/profiles/" + id).then().statusCode(200).body("data.name", equalTo("Via OAuth"));
        as(token).get("/posts").then().statusCode(403).body("error.details.required_scope", equalTo("posts:read"));

        RestAssured.given()
                .baseUri(gateway)
                .auth()
                .preemptive()
                .basic(client.getString("data.client_id"), client.getString("data.client_secret"))
                .contentType(ContentType.URLENC)
                .formParam("grant_type", "client_credentials")
                .formParam("resource", "https://api.other.example/api/v1")
                .post("/oauth/token")
                .then()
                .statusCode(400)
                .body("error", equalTo("invalid_target"));
    }
}
