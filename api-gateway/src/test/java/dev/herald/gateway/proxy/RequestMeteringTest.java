package dev.herald.gateway.proxy;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.lessThanOrEqualTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

import dev.herald.common.api.LimitRefusal;
import dev.herald.gateway.AdminApi;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Rate limiting and the monthly API-request meter, with plans served by a stand-in usage-service. */
@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "gateway_test"))
@QuarkusTestResource(EchoUpstream.class)
class RequestMeteringTest {
    static final String ADMIN = AdminApi.ADMIN;

    private String workspace;
    private String key;

    @BeforeEach
    void newWorkspace() {
        workspace = AdminApi.newWorkspace("Metering");
        key = AdminApi.newKeySecret(workspace, "live");
    }

    private Response get(String path) {
        return given().header("Authorization", "Bearer " + key).get("/api/v1" + path);
    }

    /** The month's count as GET /usage would hear it from the gateway (this request included). */
    private long usedIncludingThisRead() {
        // EchoUpstream answers GET /usage as usage-service does: the claim the gateway sent is the meter's "used".
        return get("/usage").then().statusCode(200).extract().jsonPath().getLong("data.api_requests.used");
    }

    /** Starts a test's burst early enough in a minute that it cannot straddle two windows. */
    private static void awaitFreshMinute() throws InterruptedException {
        int second = Instant.now().atOffset(ZoneOffset.UTC).getSecond();
        if (second > 45) {
            Thread.sleep((61 - second) * 1000L);
        }
    }

    @Test
    void theThirtyFirstRequestOfAMinuteOnTheFreePlanIsRefusedEvenOnAnExemptRoute() throws Exception {
        awaitFreshMinute();
        for (int i = 1; i <= 30; i++) {
            get("/profiles")
                    .then()
                    .statusCode(200)
                    .header("X-RateLimit-Limit", "30")
                    .header("X-RateLimit-Remaining", Integer.toString(30 - i));
        }
        long reset = Instant.now()
                .truncatedTo(ChronoUnit.MINUTES)
                .plus(1, ChronoUnit.MINUTES)
                .getEpochSecond();
        get("/profiles")
                .then()
                .statusCode(429)
                .body("error.code", equalTo("rate_limit_exceeded"))
                .body("error.details.limit", equalTo(30))
                .body("error.details.retry_after_seconds", greaterThan(0))
                .body("error.details.retry_after_seconds", lessThanOrEqualTo(60))
                .header("Retry-After", notNullValue())
                .header("X-RateLimit-Limit", "30")
                .header("X-RateLimit-Remaining", "0")
                .header("X-RateLimit-Reset", Long.toString(reset));
    }

    @Test
    void spendingTheAllowanceRefusesEveryRequestUntilReset() {
        EchoUpstream.ENTITLEMENTS.put(workspace + ":live", new long[] {100, 3});
        assertThat(usedIncludingThisRead()).isEqualTo(1);
        get("/posts").then().statusCode(200);
        assertThat(usedIncludingThisRead()).isEqualTo(3);

        Response refused = get("/posts");
        refused.then()
                .statusCode(429)
                .body("error.code", equalTo("usage_limit_exceeded"))
                .body("error.details.metric", equalTo("api_requests"))
                .body("error.details.mode", equalTo("live"))
                .body("error.details.plan", equalTo("free"))
                .body("error.details.limit", equalTo(3))
                .body("error.details.used", equalTo(3))
                .body("error.details.reserved", equalTo(0))
                .body("error.details.remaining", equalTo(0))
                .body("error.details.upgrade_url", notNullValue());
        Instant resetAt = Instant.parse(refused.path("error.details.reset_at"));
        assertThat(resetAt.atOffset(ZoneOffset.UTC).getDayOfMonth()).isEqualTo(1);
        long retryAfter = Long.parseLong(refused.header("Retry-After"));
        assertThat(retryAfter).isEqualTo(((Number) refused.path("error.details.retry_after_seconds")).longValue());
        assertThat(Instant.now().plusSeconds(retryAfter)).isBetween(resetAt.minusSeconds(5), resetAt.plusSeconds(5));
        // Rounded up, never down: a client that waits Retry-After seconds does not come back before reset_at.
        assertThat(Instant.now().plusSeconds(retryAfter)).isAfterOrEqualTo(resetAt);
        // Exempt routes are refused too once the allowance is spent.
        get("/profiles").then().statusCode(429).body("error.code", equalTo("usage_limit_exceeded"));
    }

    @Test
    void validatingAPostGoesToPostsServiceAsOneApiRequestOfThePostsWriteScope() {
        long before = usedIncludingThisRead();
        given().header("Authorization", "Bearer " + key)
                .contentType(ContentType.JSON)
                .body("{\"text\":\"Hi\",\"account_ids\":[]}")
                .post("/api/v1/posts/validate")
                .then()
                .statusCode(200)
                .header("x-upstream", "echo")
                .body("data.method", equalTo("POST"))
                .body("data.path", equalTo("/posts/validate"));
        assertThat(usedIncludingThisRead()).isEqualTo(before + 2);

        String readOnly = AdminApi.newKeySecret(workspace, "live", "posts:read");
        given().header("Authorization", "Bearer " + readOnly)
                .contentType(ContentType.JSON)
                .body("{}")
                .post("/api/v1/posts/validate")
                .then()
                .statusCode(403)
                .body("error.details.required_scope", equalTo("posts:write"));
    }

    @Test
    void failedAuthenticationMissingScopeAndUnknownRoutesAreNotCounted() {
        given().header("Authorization", "Bearer sk_live_" + "x".repeat(32))
                .get("/api/v1/posts")
                .then()
                .statusCode(401);
        String readOnly = given().header("Authorization", ADMIN)
                .contentType(ContentType.JSON)
                .body("{\"mode\":\"live\",\"scopes\":[\"profiles:read\"]}")
                .post("/admin/v1/workspaces/" + workspace + "/api-keys")
                .then()
                .extract()
                .path("data.secret");
        given().header("Authorization", "Bearer " + readOnly)
                .get("/api/v1/posts")
                .then()
                .statusCode(403);
        get("/nowhere").then().statusCode(404);
        get("/profiles").then().statusCode(200);
        assertThat(usedIncludingThisRead()).isEqualTo(1);
    }

    @Test
    void serverErrorsLimitRefusalsAndExactReplaysGiveTheirUnitBack() throws Exception {
        get("/posts?status=503").then().statusCode(503);
        get("/posts?status=429").then().statusCode(429);
        get("/posts?replayed=true").then().statusCode(200).header("Idempotency-Replayed", "true");
        // A 409 limit refusal (account_limit_reached) charges nothing; the mark stays between gateway and service.
        get("/posts?status=409&limit_refusal=true").then().statusCode(409).header(LimitRefusal.HEADER, nullValue());
        get("/posts?status=422").then().statusCode(422);
        // Refunds land just after the answer; the 422 is the one that counts, plus this read.
        long used = 0;
        for (int attempt = 0; attempt < 20 && used != 2; attempt++) {
            Thread.sleep(100);
            used = usedIncludingThisRead() - attempt;
        }
        assertThat(used).isEqualTo(2);
    }

    @Test
    void aPlanChangeAnswersTheUsageViewWithTheRequestsThisGatewayCounted() {
        get("/posts").then().statusCode(200);
        get("/posts").then().statusCode(200);
        given().header("Authorization", ADMIN)
                .contentType(ContentType.JSON)
                .body("{\"mode\":\"live\",\"plan\":\"starter\",\"plan_source\":\"subscription\"}")
                .put("/admin/v1/workspaces/" + workspace + "/plan")
                .then()
                .statusCode(200)
                .body("data.api_requests.used", equalTo(2))
                .body("data.api_requests.remaining", equalTo(1998));
    }

    @Test
    void aPlanChangeGoesToUsageServiceForThatWorkspaceAndMode() {
        given().header("Authorization", ADMIN)
                .contentType(ContentType.JSON)
                .body("{\"mode\":\"test\",\"plan\":\"growth\",\"plan_source\":\"subscription\",\"grace_ends_at\":null}")
                .put("/admin/v1/workspaces/" + workspace + "/plan")
                .then()
                .statusCode(200)
                .body("data.workspace", equalTo(workspace))
                .body("data.mode", equalTo("test"))
                .body("data.forwarded.plan", equalTo("growth"))
                .body("data.forwarded.mode", equalTo(null));
        given().header("Authorization", ADMIN)
                .contentType(ContentType.JSON)
                .body("{\"mode\":\"test\"}")
                .put("/admin/v1/workspaces/" + workspace + "/plan")
                .then()
                .statusCode(422)
                .body("error.code", equalTo("validation_failed"));
        given().header("Authorization", ADMIN)
                .contentType(ContentType.JSON)
                .body("{\"mode\":\"live\",\"plan\":\"growth\",\"plan_source\":\"subscription\"}")
                .put("/admin/v1/workspaces/ws_000000000000000000000000/plan")
                .then()
                .statusCode(404);
    }
}
