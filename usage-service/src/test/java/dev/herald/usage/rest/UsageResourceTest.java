package dev.herald.usage.rest;

import static dev.herald.usage.support.UsageTestSupport.as;
import static dev.herald.usage.support.UsageTestSupport.json;
import static dev.herald.usage.support.UsageTestSupport.usage;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.herald.common.auth.Mode;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.testing.RealInfrastructure;
import dev.herald.usage.support.MutableClock;
import dev.herald.usage.support.UsageTestSupport;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(value = RealInfrastructure.class, initArgs = @ResourceArg(name = "database", value = "usage_test"))
class UsageResourceTest {
    @Inject
    MutableClock clock;

    private String workspace;

    @BeforeEach
    void newWorkspace() {
        workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
        clock.set(Instant.parse("2026-03-10T12:00:00Z"));
    }

    @AfterEach
    void realTime() {
        clock.reset();
    }

    @Test
    void aWorkspaceWithoutAPlanIsOnFreeWithCalendarMonthsInLiveMode() {
        JsonNode body = json(as(workspace, Mode.LIVE)
                .get("/usage")
                .then()
                .statusCode(200)
                .extract()
                .response());
        assertThat(body).isEqualTo(json("""
                {"data":{"mode":"live","plan":"free","plan_source":"free","catalog_version":"2026-09",
                 "period":{"start":"2026-03-01T00:00:00Z","end":"2026-04-01T00:00:00Z"},
                 "reset_at":"2026-04-01T00:00:00Z","grace_ends_at":null,
                 "accounts":{"used":0,"limit":2,"remaining":2},
                 "publications":{"used":0,"reserved":0,"limit":20,"remaining":20,"reset_at":"2026-04-01T00:00:00Z"},
                 "api_requests":{"used":0,"reserved":0,"limit":2000,"remaining":2000,"reset_at":"2026-04-01T00:00:00Z"},
                 "media_bytes":{"used":0,"reserved":0,"limit":1000000000,"remaining":1000000000,"reset_at":"2026-04-01T00:00:00Z"},
                 "comment_requests":{"used":0,"reserved":0,"limit":200,"remaining":200,"reset_at":"2026-04-01T00:00:00Z"},
                 "new_connections":{"used":0,"reserved":0,"limit":4,"remaining":4,"reset_at":"2026-04-01T00:00:00Z"},
                 "rate_limit":{"per_minute":30},"concurrent_ingests":1}}"""));
    }

    @Test
    void testModeHasItsOwnAllowancesAndNoMediaCommentOrConnectionMeters() {
        as(workspace, Mode.TEST)
                .body("{\"plan\":\"growth\",\"plan_source\":\"subscription\"}")
                .put("/internal/subscription")
                .then()
                .statusCode(200);
        JsonNode body = json(as(workspace, Mode.TEST)
                .get("/usage")
                .then()
                .statusCode(200)
                .extract()
                .response());
        // Test mode resets on calendar months even for a subscription; rate and ingests follow the plan.
        assertThat(body).isEqualTo(json("""
                {"data":{"mode":"test","plan":"growth","plan_source":"subscription","catalog_version":"2026-09",
                 "period":{"start":"2026-03-01T00:00:00Z","end":"2026-04-01T00:00:00Z"},
                 "reset_at":"2026-04-01T00:00:00Z","grace_ends_at":null,
                 "accounts":{"used":0,"limit":10,"remaining":10},
                 "publications":{"used":0,"reserved":0,"limit":1000,"remaining":1000,"reset_at":"2026-04-01T00:00:00Z"},
                 "api_requests":{"used":0,"reserved":0,"limit":10000,"remaining":10000,"reset_at":"2026-04-01T00:00:00Z"},
                 "media_bytes":null,"comment_requests":null,"new_connections":null,
                 "rate_limit":{"per_minute":120},"concurrent_ingests":5}}"""));
        // The live side of the same workspace is untouched.
        assertThat(usage(workspace, Mode.LIVE).get("plan").asText()).isEqualTo("free");
    }

    @Test
    void aLiveSubscriptionRenewsMonthlyFromItsStart() throws Exception {
        clock.set(Instant.parse("2026-01-31T10:00:00Z"));
        as(workspace, Mode.LIVE)
                .body("{\"plan\":\"starter\",\"plan_source\":\"subscription\",\"grace_ends_at\":null}")
                .put("/internal/subscription")
                .then()
                .statusCode(200);
        UsageTestSupport.connectAccounts(workspace, Mode.LIVE, 3);
        clock.set(Instant.parse("2026-03-01T00:00:00Z"));
        JsonNode body = json(as(workspace, Mode.LIVE)
                .get("/usage")
                .then()
                .statusCode(200)
                .extract()
                .response());
        assertThat(body).isEqualTo(json("""
                {"data":{"mode":"live","plan":"starter","plan_source":"subscription","catalog_version":"2026-09",
                 "period":{"start":"2026-02-28T10:00:00Z","end":"2026-03-31T10:00:00Z"},
                 "reset_at":"2026-03-31T10:00:00Z","grace_ends_at":null,
                 "accounts":{"used":3,"limit":10,"remaining":7},
                 "publications":{"used":0,"reserved":0,"limit":300,"remaining":300,"reset_at":"2026-03-31T10:00:00Z"},
                 "api_requests":{"used":0,"reserved":0,"limit":25000,"remaining":25000,"reset_at":"2026-03-31T10:00:00Z"},
                 "media_bytes":{"used":0,"reserved":0,"limit":30000000000,"remaining":30000000000,"reset_at":"2026-03-31T10:00:00Z"},
                 "comment_requests":{"used":0,"reserved":0,"limit":3000,"remaining":3000,"reset_at":"2026-03-31T10:00:00Z"},
                 "new_connections":{"used":0,"reserved":0,"limit":20,"remaining":20,"reset_at":"2026-03-31T10:00:00Z"},
                 "rate_limit":{"per_minute":60},"concurrent_ingests":2}}"""));
    }

    @Test
    void apiRequestsUsedComesFromTheGatewaysClaim() {
        JsonNode meter = json(given().header(
                                "Authorization", UsageTestSupport.bearerWithApiRequests(workspace, Mode.LIVE, 1_999))
                        .get("/usage")
                        .then()
                        .statusCode(200)
                        .extract()
                        .response())
                .get("data")
                .get("api_requests");
        assertThat(meter)
                .isEqualTo(
                        json(
                                "{\"used\":1999,\"reserved\":0,\"limit\":2000,\"remaining\":1,\"reset_at\":\"2026-04-01T00:00:00Z\"}"));
        JsonNode over = json(given().header(
                                "Authorization", UsageTestSupport.bearerWithApiRequests(workspace, Mode.LIVE, 2_500))
                        .get("/usage")
                        .then()
                        .statusCode(200)
                        .extract()
                        .response())
                .get("data")
                .get("api_requests");
        assertThat(over.get("remaining").asLong()).isZero();
        assertThat(over.get("used").asLong()).isEqualTo(2_500);
    }

    @Test
    void accountsOverTheLimitShowNoRemainingSlots() throws Exception {
        UsageTestSupport.connectAccounts(workspace, Mode.LIVE, 3);
        UsageTestSupport.connectAccounts(workspace, Mode.TEST, 1);
        assertThat(usage(workspace, Mode.LIVE).get("accounts"))
                .isEqualTo(json("{\"used\":3,\"limit\":2,\"remaining\":0}"));
        assertThat(usage(workspace, Mode.TEST).get("accounts"))
                .isEqualTo(json("{\"used\":1,\"limit\":10,\"remaining\":9}"));
    }

    @Test
    void entitlementsTellTheRateTheApiRequestAllowanceAndTheConcurrentIngests() {
        JsonNode body = json(as(workspace, Mode.LIVE)
                .get("/internal/entitlements")
                .then()
                .statusCode(200)
                .extract()
                .response());
        assertThat(body).isEqualTo(json("""
                {"data":{"plan":"free","plan_source":"free",
                 "period":{"start":"2026-03-01T00:00:00Z","end":"2026-04-01T00:00:00Z"},
                 "rate_limit":{"per_minute":30},"api_requests_limit":2000,"concurrent_ingests":1}}"""));
        as(workspace, Mode.TEST)
                .body("{\"plan\":\"scale\",\"plan_source\":\"comp\",\"grace_ends_at\":\"2026-06-30T00:00:00Z\"}")
                .put("/internal/subscription")
                .then()
                .statusCode(200)
                .body("data.grace_ends_at", equalTo("2026-06-30T00:00:00Z"));
        as(workspace, Mode.TEST)
                .get("/internal/entitlements")
                .then()
                .statusCode(200)
                .body("data.plan", equalTo("scale"))
                .body("data.plan_source", equalTo("comp"))
                .body("data.rate_limit.per_minute", equalTo(300))
                .body("data.api_requests_limit", equalTo(10000))
                .body("data.concurrent_ingests", equalTo(10));
    }

    @Test
    void thePlanCatalogListsEveryPlanCheapestFirstWithTheCallersModesAllowances() {
        as(workspace, Mode.LIVE)
                .get("/internal/plans")
                .then()
                .statusCode(200)
                .body("data.plan", contains("free", "starter", "growth", "scale"))
                .body("data[1].api_requests", equalTo(25000))
                .body("data[1].media_bytes", equalTo(30000000000L))
                .body("data[3].rate_limit.per_minute", equalTo(300));
        // Test mode has its own allowances whatever the plan; the rate follows the plan.
        as(workspace, Mode.TEST)
                .get("/internal/plans")
                .then()
                .statusCode(200)
                .body("data.api_requests", contains(10000, 10000, 10000, 10000))
                .body("data[0].media_bytes", nullValue())
                .body("data.rate_limit.per_minute", contains(30, 60, 120, 300));
        given().get("/internal/plans").then().statusCode(401);
    }

    @Test
    void everyRouteNeedsAValidInternalToken() {
        given().get("/usage").then().statusCode(401).body("error.code", equalTo("authentication_failed"));
        given().header("Authorization", "Bearer not-a-jwt")
                .get("/internal/entitlements")
                .then()
                .statusCode(401);
        given().contentType("application/json")
                .body("{}")
                .post("/internal/reservations")
                .then()
                .statusCode(401);
        given().contentType("application/json")
                .body("{\"plan\":\"scale\",\"plan_source\":\"comp\"}")
                .put("/internal/subscription")
                .then()
                .statusCode(401);
    }
}
