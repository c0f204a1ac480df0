package dev.herald.usage.rest;

import static dev.herald.usage.support.UsageTestSupport.as;
import static dev.herald.usage.support.UsageTestSupport.connectAccounts;
import static dev.herald.usage.support.UsageTestSupport.count;
import static dev.herald.usage.support.UsageTestSupport.json;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;

import com.fasterxml.jackson.databind.JsonNode;
import dev.herald.common.auth.Mode;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.testing.RealInfrastructure;
import dev.herald.testing.TestTokens;
import dev.herald.usage.support.MutableClock;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code POST /internal/reservations/{id}/check}: may the delivery worker consume these units now? */
@QuarkusTest
@QuarkusTestResource(value = RealInfrastructure.class, initArgs = @ResourceArg(name = "database", value = "usage_test"))
class ReservationCheckResourceTest {
    private static final Instant NOW = Instant.parse("2026-03-10T12:00:00Z");

    @Inject
    MutableClock clock;

    private String workspace;

    @BeforeEach
    void newWorkspace() {
        workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
        clock.set(NOW);
    }

    @AfterEach
    void realTime() {
        clock.reset();
    }

    private void reserve(Mode mode, String id, long units, String at) {
        as(workspace, mode)
                .body("{\"reservation_id\":\"" + id + "\",\"meter\":\"publications\",\"units\":" + units
                        + (at == null ? "" : ",\"at\":\"" + at + "\"") + "}")
                .post("/internal/reservations")
                .then()
                .statusCode(201);
    }

    private Response check(Mode mode, String id, String body) {
        return as(workspace, mode).body(body).post("/internal/reservations/" + id + "/check");
    }

    private String meters() throws Exception {
        return String.valueOf(count(
                "select coalesce(sum(used * 1000 + reserved), 0) from usage_meters where workspace_id = ?", workspace));
    }

    @Test
    void checkAnswersAReservationThatCanBeConsumedAndChangesNothing() throws Exception {
        reserve(Mode.LIVE, "pst_1-acc_1", 1, null);
        JsonNode reservation = json(as(workspace, Mode.LIVE)
                .get("/internal/reservations/pst_1-acc_1")
                .then()
                .statusCode(200)
                .extract()
                .response());
        String metersBefore = meters();
        long eventsBefore = count("select count(*) from outbox where message_key = ?", workspace + ":live");

        clock.set(NOW.plus(Duration.ofDays(3)));
        assertThat(json(check(Mode.LIVE, "pst_1-acc_1", "{\"require_account_capacity\":true,\"at\":null}")
                        .then()
                        .statusCode(200)
                        .extract()
                        .response()))
                .isEqualTo(reservation);
        // Callers may send no body at all: now, no capacity requirement.
        given().header("Authorization", TestTokens.bearer(workspace, Mode.LIVE))
                .post("/internal/reservations/pst_1-acc_1/check")
                .then()
                .statusCode(200)
                .body("data.status", equalTo("reserved"));

        assertThat(meters()).isEqualTo(metersBefore);
        assertThat(count("select count(*) from outbox where message_key = ?", workspace + ":live"))
                .isEqualTo(eventsBefore);
    }

    @Test
    void anAccountThatNoLongerHoldsItsSlotIsRefusedAsDisconnected() throws Exception {
        connectAccounts(workspace, Mode.TEST, 1);
        String connected = "acc_" + String.format("%024x", 0);
        String disconnected = "acc_" + String.format("%024x", 7);
        reserve(Mode.TEST, "pst_1-" + connected, 1, null);
        reserve(Mode.TEST, "pst_1-" + disconnected, 1, null);
        String metersBefore = meters();

        check(Mode.TEST, "pst_1-" + connected, "{\"account_id\":\"" + connected + "\"}")
                .then()
                .statusCode(200)
                .body("data.status", equalTo("reserved"));
        check(Mode.TEST, "pst_1-" + disconnected, "{\"account_id\":\"" + disconnected + "\"}")
                .then()
                .statusCode(409)
                .body("error.code", equalTo("conflict"))
                .body("error.details.reason", equalTo("account_disconnected"))
                .body("error.details.account_id", equalTo(disconnected));
        // Another mode's slot is not this mode's.
        check(Mode.LIVE, "pst_1-" + connected, "{\"account_id\":\"" + connected + "\"}")
                .then()
                .statusCode(404);
        assertThat(meters()).isEqualTo(metersBefore);
    }

    @Test
    void unitsOfTheirOwnPeriodAreAlreadyCountedEvenWhenThePeriodIsFull() {
        reserve(Mode.LIVE, "first", 1, null);
        reserve(Mode.LIVE, "the-rest", 19, null);
        check(Mode.LIVE, "first", "{\"at\":\"2026-03-31T23:59:59Z\"}").then().statusCode(200);
    }

    @Test
    void checkInALaterPeriodNeedsRoomForTheUnitsThere() {
        reserve(Mode.LIVE, "late-march", 1, "2026-03-31T23:00:00Z");
        reserve(Mode.LIVE, "april", 20, "2026-04-10T00:00:00Z");

        Response refused = check(Mode.LIVE, "late-march", "{\"at\":\"2026-04-01T00:10:00Z\"}");
        long untilMay =
                Duration.between(NOW, Instant.parse("2026-05-01T00:00:00Z")).toSeconds();
        refused.then().statusCode(429).header("Retry-After", Long.toString(untilMay));
        assertThat(json(refused).get("error")).isEqualTo(json("""
                {"code":"usage_limit_exceeded","message":"The publications allowance of this period is used up.",
                 "details":{"metric":"publications","mode":"live","plan":"free","limit":20,"used":0,"reserved":20,
                  "remaining":0,"reset_at":"2026-05-01T00:00:00Z","upgrade_url":"https://herald.dev/pricing",
                  "retry_after_seconds":%d}}""".formatted(untilMay)));
        // Still in its own period: fine.
        check(Mode.LIVE, "late-march", "{\"at\":\"2026-03-31T23:30:00Z\"}")
                .then()
                .statusCode(200);

        // Room made in April: the check passes, and consuming then lands there.
        as(workspace, Mode.LIVE)
                .post("/internal/reservations/april/release")
                .then()
                .statusCode(200);
        check(Mode.LIVE, "late-march", "{\"at\":\"2026-04-01T00:10:00Z\"}")
                .then()
                .statusCode(200)
                .body("data.period.start", equalTo("2026-03-01T00:00:00Z"));
    }

    @Test
    void aLaterPeriodNobodyHasUsedYetHasRoom() {
        reserve(Mode.LIVE, "late-march", 1, "2026-03-31T23:00:00Z");
        check(Mode.LIVE, "late-march", "{\"at\":\"2026-04-02T00:00:00Z\"}")
                .then()
                .statusCode(200);
    }

    @Test
    void checkWithAccountCapacityRefusesALiveWorkspaceOverItsPlan() throws Exception {
        reserve(Mode.LIVE, "scheduled", 1, null);
        reserve(Mode.TEST, "scheduled", 1, null);
        connectAccounts(workspace, Mode.LIVE, 3);
        connectAccounts(workspace, Mode.TEST, 12);

        Response refused = check(Mode.LIVE, "scheduled", "{\"require_account_capacity\":true}");
        refused.then().statusCode(409);
        assertThat(json(refused).get("error").get("code").asText()).isEqualTo("account_capacity_exceeded");
        assertThat(json(refused).get("error").get("details")).isEqualTo(json("""
                {"mode":"live","plan":"free","limit":2,"connected":3,"upgrade_url":"https://herald.dev/pricing"}"""));
        check(Mode.LIVE, "scheduled", "{\"require_account_capacity\":false}")
                .then()
                .statusCode(200);
        check(Mode.TEST, "scheduled", "{\"require_account_capacity\":true}")
                .then()
                .statusCode(200);
        as(workspace, Mode.LIVE)
                .get("/internal/reservations/scheduled")
                .then()
                .body("data.status", equalTo("reserved"));
    }

    @Test
    void settledOrUnknownReservationsCannotBeChecked() {
        reserve(Mode.LIVE, "done", 1, null);
        as(workspace, Mode.LIVE)
                .post("/internal/reservations/done/consume")
                .then()
                .statusCode(200);
        check(Mode.LIVE, "done", "{}")
                .then()
                .statusCode(409)
                .body("error.code", equalTo("conflict"))
                .body("error.details.reservation_id", equalTo("done"))
                .body("error.details.status", equalTo("consumed"));

        reserve(Mode.LIVE, "dropped", 1, null);
        as(workspace, Mode.LIVE)
                .post("/internal/reservations/dropped/release")
                .then()
                .statusCode(200);
        check(Mode.LIVE, "dropped", "{}").then().statusCode(409).body("error.details.status", equalTo("released"));

        check(Mode.LIVE, "never-made", "{}").then().statusCode(404).body("error.code", equalTo("not_found"));
        reserve(Mode.LIVE, "mine", 1, null);
        as(ResourceIds.newId(IdPrefix.WORKSPACE), Mode.LIVE)
                .body("{}")
                .post("/internal/reservations/mine/check")
                .then()
                .statusCode(404);
        check(Mode.TEST, "mine", "{}").then().statusCode(404);
    }

    @Test
    void badCheckBodiesAreRefusedFieldByField() {
        reserve(Mode.LIVE, "x", 1, null);
        check(Mode.LIVE, "x", "{\"require_account_capacity\":1,\"at\":\"soon\",\"units\":1}")
                .then()
                .statusCode(422)
                .body("error.code", equalTo("validation_failed"))
                .body("error.details.errors.field", containsInAnyOrder("require_account_capacity", "at", "units"));
        check(Mode.LIVE, "x", "{\"at\":\"2028-01-01T00:00:00Z\"}")
                .then()
                .statusCode(422)
                .body("error.details.errors[0].code", equalTo("invalid_value"));
        as(workspace, Mode.LIVE)
                .contentType("text/plain")
                .body("now")
                .post("/internal/reservations/x/check")
                .then()
                .statusCode(415);
    }
}
