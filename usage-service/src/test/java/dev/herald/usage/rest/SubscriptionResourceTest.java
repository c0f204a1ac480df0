package dev.herald.usage.rest;

import static dev.herald.usage.support.UsageTestSupport.as;
import static dev.herald.usage.support.UsageTestSupport.count;
import static dev.herald.usage.support.UsageTestSupport.json;
import static dev.herald.usage.support.UsageTestSupport.usage;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

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
import io.restassured.response.ValidatableResponse;
import jakarta.inject.Inject;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(value = RealInfrastructure.class, initArgs = @ResourceArg(name = "database", value = "usage_test"))
class SubscriptionResourceTest {
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

    private ValidatableResponse put(String plan, String source) {
        return as(workspace, Mode.LIVE)
                .body("{\"plan\":\"" + plan + "\",\"plan_source\":\"" + source + "\"}")
                .put("/internal/subscription")
                .then();
    }

    private void reserve(String id, long units, int status) {
        as(workspace, Mode.LIVE)
                .body("{\"reservation_id\":\"" + id + "\",\"meter\":\"publications\",\"units\":" + units + "}")
                .post("/internal/reservations")
                .then()
                .statusCode(status);
    }

    @Test
    void anUpgradeAppliesAtOnce() {
        reserve("all-of-free", 20, 201);
        reserve("one-more", 1, 429);

        // Free to a complimentary plan: still calendar months, so the period and its reservations carry over.
        put("growth", "comp")
                .statusCode(200)
                .body("data.plan", equalTo("growth"))
                .body("data.plan_source", equalTo("comp"))
                .body("data.period.start", equalTo("2026-03-01T00:00:00Z"))
                .body("data.publications.reserved", equalTo(20))
                .body("data.publications.limit", equalTo(1500))
                .body("data.publications.remaining", equalTo(1480))
                .body("data.rate_limit.per_minute", equalTo(120));
        reserve("one-more", 1, 201);
        assertThat(usage(workspace, Mode.LIVE).get("plan").asText()).isEqualTo("growth");
    }

    @Test
    void aNewSubscriptionStartsANewMonthlyPeriodNow() {
        reserve("on-free", 20, 201);
        JsonNode answer = json(as(workspace, Mode.LIVE)
                        .body("{\"plan\":\"starter\",\"plan_source\":\"subscription\"}")
                        .put("/internal/subscription")
                        .then()
                        .statusCode(200)
                        .extract()
                        .response())
                .get("data");
        assertThat(answer.get("period"))
                .isEqualTo(json("{\"start\":\"2026-03-10T12:00:00Z\",\"end\":\"2026-04-10T12:00:00Z\"}"));
        assertThat(answer.get("publications"))
                .isEqualTo(
                        json(
                                "{\"used\":0,\"reserved\":0,\"limit\":300,\"remaining\":300,\"reset_at\":\"2026-04-10T12:00:00Z\"}"));
        assertThat(answer).isEqualTo(usage(workspace, Mode.LIVE));
        // An upgrade within the subscription keeps its anniversary.
        clock.set(Instant.parse("2026-03-20T00:00:00Z"));
        put("scale", "subscription")
                .statusCode(200)
                .body("data.plan", equalTo("scale"))
                .body("data.period.start", equalTo("2026-03-10T12:00:00Z"));
    }

    @Test
    void aDowngradeWaitsForTheRenewalAndDisconnectsNothing() throws Exception {
        clock.set(Instant.parse("2026-01-15T08:00:00Z"));
        put("growth", "subscription").statusCode(200);
        UsageTestSupport.connectAccounts(workspace, Mode.LIVE, 12);

        clock.set(Instant.parse("2026-01-20T00:00:00Z"));
        put("starter", "subscription")
                .statusCode(200)
                .body("data.plan", equalTo("growth"))
                .body("data.period.end", equalTo("2026-02-15T08:00:00Z"))
                .body("data.accounts.limit", equalTo(40));
        // A reservation for after the renewal already counts against the plan of that period.
        as(workspace, Mode.LIVE)
                .body("{\"reservation_id\":\"after-renewal\",\"meter\":\"publications\",\"units\":301,"
                        + "\"at\":\"2026-02-20T00:00:00Z\"}")
                .post("/internal/reservations")
                .then()
                .statusCode(429)
                .body("error.details.plan", equalTo("starter"))
                .body("error.details.limit", equalTo(300))
                .body("error.details.reset_at", equalTo("2026-03-15T08:00:00Z"));

        clock.set(Instant.parse("2026-02-15T07:59:59Z"));
        assertThat(usage(workspace, Mode.LIVE).get("plan").asText()).isEqualTo("growth");

        clock.set(Instant.parse("2026-02-15T08:00:00Z"));
        JsonNode renewed = usage(workspace, Mode.LIVE);
        assertThat(renewed.get("plan").asText()).isEqualTo("starter");
        assertThat(renewed.get("plan_source").asText()).isEqualTo("subscription");
        assertThat(renewed.get("period"))
                .isEqualTo(json("{\"start\":\"2026-02-15T08:00:00Z\",\"end\":\"2026-03-15T08:00:00Z\"}"));
        assertThat(renewed.get("accounts")).isEqualTo(json("{\"used\":12,\"limit\":10,\"remaining\":0}"));
        assertThat(renewed.get("publications").get("limit").asLong()).isEqualTo(300);
        assertThat(count("select count(*) from connected_accounts where workspace_id = ?", workspace))
                .isEqualTo(12);

        // A later plan change sees the downgrade as done: going back up applies at once, in the same anniversary.
        clock.set(Instant.parse("2026-02-20T00:00:00Z"));
        put("growth", "subscription")
                .statusCode(200)
                .body("data.plan", equalTo("growth"))
                .body("data.period.start", equalTo("2026-02-15T08:00:00Z"));
    }

    @Test
    void whenBetaAccessEndsTheFreePlanAppliesAndExtraAccountsStopNewLivePostsButStayConnected() throws Exception {
        as(workspace, Mode.LIVE)
                .body("{\"plan\":\"starter\",\"plan_source\":\"beta\",\"grace_ends_at\":\"2026-03-20T00:00:00Z\"}")
                .put("/internal/subscription")
                .then()
                .statusCode(200)
                .body("data.plan", equalTo("starter"))
                .body("data.grace_ends_at", equalTo("2026-03-20T00:00:00Z"));
        UsageTestSupport.connectAccounts(workspace, Mode.LIVE, 3);
        String livePost =
                "{\"reservations\":[{\"reservation_id\":\"pst_1-acc_1\",\"meter\":\"publications\",\"units\":1}],"
                        + "\"require_account_capacity\":true}";

        clock.set(Instant.parse("2026-03-19T23:59:59Z"));
        assertThat(usage(workspace, Mode.LIVE).get("plan_source").asText()).isEqualTo("beta");
        as(workspace, Mode.LIVE)
                .body(livePost)
                .post("/internal/reservations/batch")
                .then()
                .statusCode(201);

        clock.set(Instant.parse("2026-03-20T00:00:00Z"));
        JsonNode ended = usage(workspace, Mode.LIVE);
        assertThat(ended.get("plan").asText()).isEqualTo("free");
        assertThat(ended.get("plan_source").asText()).isEqualTo("free");
        assertThat(ended.get("grace_ends_at").isNull()).isTrue();
        // Calendar months before and after: the period, and what it reserved, carry over.
        assertThat(ended.get("period"))
                .isEqualTo(json("{\"start\":\"2026-03-01T00:00:00Z\",\"end\":\"2026-04-01T00:00:00Z\"}"));
        assertThat(ended.get("publications").get("reserved").asLong()).isEqualTo(1);
        assertThat(ended.get("accounts")).isEqualTo(json("{\"used\":3,\"limit\":2,\"remaining\":0}"));
        as(workspace, Mode.LIVE)
                .body(livePost.replace("pst_1", "pst_2"))
                .post("/internal/reservations/batch")
                .then()
                .statusCode(409)
                .body("error.code", equalTo("account_capacity_exceeded"))
                .body("error.details.plan", equalTo("free"))
                .body("error.details.connected", equalTo(3));
        assertThat(count("select count(*) from connected_accounts where workspace_id = ?", workspace))
                .isEqualTo(3);
    }

    @Test
    void aFailedPaymentGraceThatEndsFallsBackToTheScheduledPlanAtOnce() {
        clock.set(Instant.parse("2026-01-15T08:00:00Z"));
        put("growth", "subscription").statusCode(200);
        clock.set(Instant.parse("2026-01-20T00:00:00Z"));
        // Payment failed: growth stays until the grace ends; the customer also chose starter for the renewal.
        as(workspace, Mode.LIVE)
                .body(
                        "{\"plan\":\"starter\",\"plan_source\":\"subscription\",\"grace_ends_at\":\"2026-01-27T00:00:00Z\"}")
                .put("/internal/subscription")
                .then()
                .statusCode(200)
                .body("data.plan", equalTo("growth"))
                .body("data.grace_ends_at", equalTo("2026-01-27T00:00:00Z"));
        clock.set(Instant.parse("2026-01-26T23:59:59Z"));
        assertThat(usage(workspace, Mode.LIVE).get("plan").asText()).isEqualTo("growth");

        clock.set(Instant.parse("2026-01-27T00:00:00Z"));
        JsonNode lapsed = usage(workspace, Mode.LIVE);
        assertThat(lapsed.get("plan").asText()).isEqualTo("starter");
        assertThat(lapsed.get("grace_ends_at").isNull()).isTrue();
        // The same source keeps its anniversary.
        assertThat(lapsed.get("period").get("start").asText()).isEqualTo("2026-01-15T08:00:00Z");
    }

    @Test
    void endingAPaidSubscriptionFallsBackToCalendarMonthsAtTheRenewal() {
        clock.set(Instant.parse("2026-01-15T08:00:00Z"));
        put("starter", "subscription").statusCode(200);
        put("free", "free").statusCode(200).body("data.plan", equalTo("starter"));
        // Moving off the paid subscription at the same plan also waits (the paid month runs out first).
        clock.set(Instant.parse("2026-02-20T00:00:00Z"));
        assertThat(usage(workspace, Mode.LIVE).get("plan").asText()).isEqualTo("free");
        assertThat(usage(workspace, Mode.LIVE).get("period"))
                .isEqualTo(json("{\"start\":\"2026-02-01T00:00:00Z\",\"end\":\"2026-03-01T00:00:00Z\"}"));

        put("scale", "subscription").statusCode(200);
        put("scale", "beta").statusCode(200).body("data.plan_source", equalTo("subscription"));
        clock.set(Instant.parse("2026-03-20T00:00:01Z"));
        assertThat(usage(workspace, Mode.LIVE).get("plan_source").asText()).isEqualTo("beta");
    }

    @Test
    void askingForTheCurrentPlanAgainCancelsAPendingDowngrade() {
        put("scale", "comp").statusCode(200);
        put("starter", "comp").statusCode(200).body("data.plan", equalTo("scale"));
        put("scale", "comp").statusCode(200).body("data.plan", equalTo("scale"));
        clock.set(Instant.parse("2026-04-02T00:00:00Z"));
        assertThat(usage(workspace, Mode.LIVE).get("plan").asText()).isEqualTo("scale");
    }

    @Test
    void aGraceThatHasAlreadyEndedIsRefusedRatherThanDowngradingAtOnce() {
        put("growth", "subscription").statusCode(200);
        for (String ended : new String[] {"2026-03-10T12:00:00Z", "2020-01-01T00:00:00Z"}) {
            as(workspace, Mode.LIVE)
                    .body("{\"plan\":\"starter\",\"plan_source\":\"comp\",\"grace_ends_at\":\"" + ended + "\"}")
                    .put("/internal/subscription")
                    .then()
                    .statusCode(422)
                    .body("error.details.errors", hasSize(1))
                    .body("error.details.errors[0].field", equalTo("grace_ends_at"))
                    .body("error.details.errors[0].code", equalTo("invalid_value"));
        }
        JsonNode unchanged = usage(workspace, Mode.LIVE);
        assertThat(unchanged.get("plan").asText()).isEqualTo("growth");
        assertThat(unchanged.get("plan_source").asText()).isEqualTo("subscription");
    }

    @Test
    void badBodiesAreRefusedFieldByField() {
        as(workspace, Mode.LIVE)
                .body("{\"plan\":\"enterprise\",\"plan_source\":7,\"grace_ends_at\":\"soon\",\"mode\":\"live\"}")
                .put("/internal/subscription")
                .then()
                .statusCode(422)
                .body("error.details.errors", hasSize(4))
                .body("error.details.errors.find { it.field == 'plan' }.code", equalTo("invalid_value"))
                .body("error.details.errors.find { it.field == 'plan_source' }.code", equalTo("invalid_type"))
                .body("error.details.errors.find { it.field == 'grace_ends_at' }.code", equalTo("invalid_format"))
                .body("error.details.errors.find { it.field == 'mode' }.code", equalTo("unknown_field"));
        as(workspace, Mode.LIVE)
                .body("{\"plan\":\"scale\"}")
                .put("/internal/subscription")
                .then()
                .statusCode(422)
                .body("error.details.errors[0].field", equalTo("plan_source"))
                .body("error.details.errors[0].code", equalTo("required"));
        assertThat(usage(workspace, Mode.LIVE).get("plan").asText()).isEqualTo("free");
    }
}
