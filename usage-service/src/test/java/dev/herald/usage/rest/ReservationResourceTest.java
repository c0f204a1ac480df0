package dev.herald.usage.rest;

import static dev.herald.usage.support.UsageTestSupport.as;
import static dev.herald.usage.support.UsageTestSupport.count;
import static dev.herald.usage.support.UsageTestSupport.json;
import static dev.herald.usage.support.UsageTestSupport.usage;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.herald.common.auth.Mode;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.testing.RealInfrastructure;
import dev.herald.testing.TestTokens;
import dev.herald.usage.support.MutableClock;
import dev.herald.usage.support.UsageTestSupport;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(value = RealInfrastructure.class, initArgs = @ResourceArg(name = "database", value = "usage_test"))
class ReservationResourceTest {
    private static final String MARCH_END = "2026-04-01T00:00:00Z";

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

    private Response reserve(Mode mode, String id, String meter, long units, String at) {
        String body = "{\"reservation_id\":\"" + id + "\",\"meter\":\"" + meter + "\",\"units\":" + units
                + (at == null ? "" : ",\"at\":\"" + at + "\"") + "}";
        return as(workspace, mode).body(body).post("/internal/reservations");
    }

    private JsonNode publications(Mode mode) {
        return usage(workspace, mode).get("publications");
    }

    private static JsonNode meter(long used, long reserved, long limit, String resetAt) {
        return json("{\"used\":" + used + ",\"reserved\":" + reserved + ",\"limit\":" + limit + ",\"remaining\":"
                + Math.max(0, limit - used - reserved) + ",\"reset_at\":\"" + resetAt + "\"}");
    }

    /** The value of {@code herald_usage_reservations_total} for the publications meter and this outcome (0 before any). */
    private static double reservationsCounted(String outcome) {
        String series = "herald_usage_reservations_total{meter=\"publications\",outcome=\"" + outcome + "\"} ";
        return given().get("/q/metrics")
                .then()
                .statusCode(200)
                .extract()
                .asString()
                .lines()
                .filter(line -> line.startsWith(series))
                .mapToDouble(line -> Double.parseDouble(line.substring(series.length())))
                .findFirst()
                .orElse(0);
    }

    @Test
    void everyReservationAskedForIsCountedByMeterAndOutcome() {
        double reserved = reservationsCounted("reserved");
        double replayed = reservationsCounted("replayed");
        double refused = reservationsCounted("limit_exceeded");

        reserve(Mode.LIVE, "pst_counted-tgt_1", "publications", 1, null).then().statusCode(201);
        reserve(Mode.LIVE, "pst_counted-tgt_1", "publications", 1, null).then().statusCode(200);
        reserve(Mode.LIVE, "pst_counted-tgt_2", "publications", 1000, null)
                .then()
                .statusCode(429);

        assertThat(reservationsCounted("reserved")).isEqualTo(reserved + 1);
        assertThat(reservationsCounted("replayed")).isEqualTo(replayed + 1);
        assertThat(reservationsCounted("limit_exceeded")).isEqualTo(refused + 1);
        // Never a workspace: the series stay few whatever the number of tenants.
        assertThat(given().get("/q/metrics").then().extract().asString()).doesNotContain(workspace);
    }

    @Test
    void reserveConsumeAndReleaseMoveTheMeter() {
        JsonNode created = json(reserve(Mode.LIVE, "pst_1-tgt_1", "publications", 3, null)
                .then()
                .statusCode(201)
                .extract()
                .response());
        assertThat(created).isEqualTo(json("""
                {"data":{"id":"pst_1-tgt_1","meter":"publications","units":3,"status":"reserved",
                 "period":{"start":"2026-03-01T00:00:00Z","end":"2026-04-01T00:00:00Z"},"consumed_period":null,
                 "created_at":"2026-03-10T12:00:00Z","updated_at":"2026-03-10T12:00:00Z"}}"""));
        assertThat(publications(Mode.LIVE)).isEqualTo(meter(0, 3, 20, MARCH_END));

        clock.set(Instant.parse("2026-03-11T08:00:00Z"));
        as(workspace, Mode.LIVE)
                .post("/internal/reservations/pst_1-tgt_1/consume")
                .then()
                .statusCode(200)
                .body("data.status", equalTo("consumed"))
                .body("data.consumed_period.start", equalTo("2026-03-01T00:00:00Z"))
                .body("data.updated_at", equalTo("2026-03-11T08:00:00Z"));
        assertThat(publications(Mode.LIVE)).isEqualTo(meter(3, 0, 20, MARCH_END));

        reserve(Mode.LIVE, "pst_2", "publications", 2, null).then().statusCode(201);
        assertThat(publications(Mode.LIVE)).isEqualTo(meter(3, 2, 20, MARCH_END));
        as(workspace, Mode.LIVE)
                .post("/internal/reservations/pst_2/release")
                .then()
                .statusCode(200)
                .body("data.status", equalTo("released"))
                .body("data.consumed_period", nullValue());
        assertThat(publications(Mode.LIVE)).isEqualTo(meter(3, 0, 20, MARCH_END));

        // Test mode counts apart, against its own allowance.
        assertThat(publications(Mode.TEST)).isEqualTo(meter(0, 0, 1000, MARCH_END));
        as(workspace, Mode.TEST).get("/internal/reservations/pst_2").then().statusCode(404);
        as(workspace, Mode.LIVE)
                .get("/internal/reservations/pst_2")
                .then()
                .statusCode(200)
                .body("data.units", equalTo(2));
    }

    @Test
    void unitsReservedForAScheduledTimeAreUsedInThePeriodOfCompletion() {
        reserve(Mode.LIVE, "late-march", "publications", 1, "2026-03-31T23:00:00Z")
                .then()
                .statusCode(201)
                .body("data.period.end", equalTo(MARCH_END));
        reserve(Mode.LIVE, "april", "publications", 4, "2026-04-02T09:00:00+02:00")
                .then()
                .statusCode(201)
                .body("data.period.start", equalTo("2026-04-01T00:00:00Z"));
        assertThat(publications(Mode.LIVE)).isEqualTo(meter(0, 1, 20, MARCH_END));

        as(workspace, Mode.LIVE)
                .body("{\"at\":\"2026-04-01T00:30:00Z\"}")
                .post("/internal/reservations/late-march/consume")
                .then()
                .statusCode(200)
                .body("data.period.start", equalTo("2026-03-01T00:00:00Z"))
                .body("data.consumed_period.start", equalTo("2026-04-01T00:00:00Z"))
                .body("data.consumed_period.end", equalTo("2026-05-01T00:00:00Z"));
        assertThat(publications(Mode.LIVE)).isEqualTo(meter(0, 0, 20, MARCH_END));

        clock.set(Instant.parse("2026-04-02T00:00:00Z"));
        assertThat(publications(Mode.LIVE)).isEqualTo(meter(1, 4, 20, "2026-05-01T00:00:00Z"));
    }

    @Test
    void replaysAnswerTheReservationAsItIsAndImpossibleTransitionsAreConflicts() throws Exception {
        JsonNode first = json(reserve(Mode.LIVE, "replayed", "publications", 2, null)
                .then()
                .statusCode(201)
                .extract()
                .response());
        clock.set(Instant.parse("2026-03-10T12:05:00Z"));
        JsonNode again = json(reserve(Mode.LIVE, "replayed", "publications", 2, null)
                .then()
                .statusCode(200)
                .extract()
                .response());
        assertThat(again).isEqualTo(first);
        reserve(Mode.LIVE, "replayed", "publications", 3, null)
                .then()
                .statusCode(409)
                .body("error.code", equalTo("conflict"))
                .body("error.details.reservation_id", equalTo("replayed"));
        reserve(Mode.LIVE, "replayed", "media_bytes", 2, null).then().statusCode(409);
        assertThat(publications(Mode.LIVE)).isEqualTo(meter(0, 2, 20, MARCH_END));

        as(workspace, Mode.LIVE)
                .post("/internal/reservations/replayed/consume")
                .then()
                .statusCode(200);
        as(workspace, Mode.LIVE)
                .body("{\"at\":\"2026-04-05T00:00:00Z\"}")
                .post("/internal/reservations/replayed/consume")
                .then()
                .statusCode(200)
                .body("data.status", equalTo("consumed"))
                .body("data.consumed_period.start", equalTo("2026-03-01T00:00:00Z"));
        as(workspace, Mode.LIVE)
                .post("/internal/reservations/replayed/release")
                .then()
                .statusCode(409)
                .body("error.code", equalTo("conflict"))
                .body("error.details.status", equalTo("consumed"));
        assertThat(publications(Mode.LIVE)).isEqualTo(meter(2, 0, 20, MARCH_END));

        reserve(Mode.LIVE, "dropped", "publications", 1, null).then().statusCode(201);
        as(workspace, Mode.LIVE)
                .post("/internal/reservations/dropped/release")
                .then()
                .statusCode(200);
        as(workspace, Mode.LIVE)
                .post("/internal/reservations/dropped/release")
                .then()
                .statusCode(200)
                .body("data.status", equalTo("released"));
        as(workspace, Mode.LIVE)
                .post("/internal/reservations/dropped/consume")
                .then()
                .statusCode(409);
        assertThat(publications(Mode.LIVE)).isEqualTo(meter(2, 0, 20, MARCH_END));

        // One event per change, none for replays or refused transitions.
        assertThat(count("select count(*) from outbox where message_key = ?", workspace + ":live"))
                .isEqualTo(4);
        as(workspace, Mode.LIVE)
                .post("/internal/reservations/unknown/consume")
                .then()
                .statusCode(404)
                .body("error.code", equalTo("not_found"));
        as(ResourceIds.newId(IdPrefix.WORKSPACE), Mode.LIVE)
                .post("/internal/reservations/dropped/release")
                .then()
                .statusCode(404);
    }

    @Test
    void aRefusalGivesTheSpecsDetailsAndWritesNothing() throws Exception {
        reserve(Mode.LIVE, "most", "publications", 18, null).then().statusCode(201);
        long events = count("select count(*) from outbox where message_key = ?", workspace + ":live");

        Response refused = reserve(Mode.LIVE, "too-many", "publications", 3, null);
        refused.then().statusCode(429).header("Retry-After", "1857600");
        JsonNode error = json(refused);
        assertThat(error.get("error")).isEqualTo(json("""
                {"code":"usage_limit_exceeded","message":"The publications allowance of this period has 2 left, fewer than this needs.",
                 "details":{"metric":"publications","mode":"live","plan":"free","limit":20,"used":0,"reserved":18,
                  "remaining":2,"reset_at":"2026-04-01T00:00:00Z","upgrade_url":"https://herald.dev/pricing",
                  "retry_after_seconds":1857600}}"""));
        assertThat(error.get("request_id").asText()).startsWith("req_");

        assertThat(publications(Mode.LIVE)).isEqualTo(meter(0, 18, 20, MARCH_END));
        as(workspace, Mode.LIVE).get("/internal/reservations/too-many").then().statusCode(404);
        assertThat(count("select count(*) from outbox where message_key = ?", workspace + ":live"))
                .isEqualTo(events);

        // Refused in a period nobody has reserved in yet: not even the meter row is left behind. (Media may
        // overshoot its allowance by one file of 128 MiB, so "huge" is one byte more than that.)
        reserve(Mode.LIVE, "huge", "media_bytes", 1_000_000_000L + 128L * 1024 * 1024 + 1, null)
                .then()
                .statusCode(429)
                .body("error.details.limit", equalTo(1_000_000_000))
                .body("error.details.used", equalTo(0))
                .body(
                        "error.message",
                        equalTo(
                                "The media bytes allowance of this period has 1000000000 left, fewer than this needs."));
        assertThat(count(
                        "select count(*) from usage_meters where workspace_id = ? and meter = 'media_bytes'",
                        workspace))
                .isZero();
        // The rest of the allowance is still there.
        reserve(Mode.LIVE, "fits", "publications", 2, null).then().statusCode(201);
    }

    @Test
    void mediaIsChargedOnceForItsLargestTransferAndTheLastMayOvershootByOneFile() throws Exception {
        long events = count("select count(*) from outbox where message_key = ?", workspace + ":live");
        reserve(Mode.LIVE, "media-a", "media_bytes", 600_000_000L, null)
                .then()
                .statusCode(201)
                .body("data.units", equalTo(600_000_000));
        // A smaller transfer of the same destination changes nothing; a larger one grows its reservation.
        reserve(Mode.LIVE, "media-a", "media_bytes", 500_000_000L, null)
                .then()
                .statusCode(200)
                .body("data.units", equalTo(600_000_000));
        reserve(Mode.LIVE, "media-a", "media_bytes", 700_000_000L, null)
                .then()
                .statusCode(200)
                .body("data.units", equalTo(700_000_000))
                .body("data.status", equalTo("reserved"));
        assertThat(media()).isEqualTo(meter(0, 700_000_000L, 1_000_000_000L, MARCH_END));

        // 300 MB are left: a 400 MB transfer starts while something is left and overshoots by 100 MB (< 128 MiB).
        reserve(Mode.LIVE, "media-b", "media_bytes", 400_000_000L, null).then().statusCode(201);
        assertThat(media()).isEqualTo(meter(0, 1_100_000_000L, 1_000_000_000L, MARCH_END));
        // Nothing is left, so nothing more starts, however small.
        reserve(Mode.LIVE, "media-c", "media_bytes", 1, null)
                .then()
                .statusCode(429)
                .body("error.details.metric", equalTo("media_bytes"))
                .body("error.details.remaining", equalTo(0));
        // Growing the last transfer past one file of overshoot is refused and leaves it as it was.
        reserve(Mode.LIVE, "media-b", "media_bytes", 300_000_000L + 128L * 1024 * 1024 + 1, null)
                .then()
                .statusCode(429);
        as(workspace, Mode.LIVE)
                .get("/internal/reservations/media-b")
                .then()
                .statusCode(200)
                .body("data.units", equalTo(400_000_000));

        as(workspace, Mode.LIVE)
                .post("/internal/reservations/media-a/consume")
                .then()
                .statusCode(200);
        // A consumed destination was charged for its largest transfer; a later, larger call charges nothing more.
        reserve(Mode.LIVE, "media-a", "media_bytes", 800_000_000L, null)
                .then()
                .statusCode(200)
                .body("data.units", equalTo(700_000_000))
                .body("data.status", equalTo("consumed"));
        assertThat(media()).isEqualTo(meter(700_000_000L, 400_000_000L, 1_000_000_000L, MARCH_END));
        // Created, grown, created, consumed: one event per change.
        assertThat(count("select count(*) from outbox where message_key = ?", workspace + ":live"))
                .isEqualTo(events + 4);
    }

    private JsonNode media() {
        return usage(workspace, Mode.LIVE).get("media_bytes");
    }

    @Test
    void testModeHasNoMediaCommentOrConnectionLimit() {
        reserve(Mode.TEST, "big", "media_bytes", 900_000_000_000L, null).then().statusCode(201);
        reserve(Mode.TEST, "comments", "comment_requests", 100_000, null).then().statusCode(201);
        reserve(Mode.TEST, "sims", "publications", 1_000, null).then().statusCode(201);
        reserve(Mode.TEST, "one-more", "publications", 1, null)
                .then()
                .statusCode(429)
                .body("error.details.mode", equalTo("test"))
                .body("error.details.limit", equalTo(1000));
    }

    @Test
    void badBodiesAreRefusedFieldByField() {
        as(workspace, Mode.LIVE)
                .body("{\"reservation_id\":\"has space\",\"meter\":\"api_requests\",\"units\":0,"
                        + "\"at\":\"yesterday\",\"workspace_id\":\"ws_x\"}")
                .post("/internal/reservations")
                .then()
                .statusCode(422)
                .body("error.code", equalTo("validation_failed"))
                .body("error.details.errors", hasSize(5))
                .body("error.details.errors.find { it.field == 'reservation_id' }.code", equalTo("invalid_format"))
                .body("error.details.errors.find { it.field == 'meter' }.code", equalTo("invalid_value"))
                .body("error.details.errors.find { it.field == 'units' }.code", equalTo("invalid_value"))
                .body("error.details.errors.find { it.field == 'at' }.code", equalTo("invalid_format"))
                .body("error.details.errors.find { it.field == 'workspace_id' }.code", equalTo("unknown_field"));
        as(workspace, Mode.LIVE)
                .body("{\"reservation_id\":\"" + "x".repeat(101) + "\",\"meter\":\"publications\",\"units\":1.5,"
                        + "\"at\":\"2028-01-01T00:00:00Z\"}")
                .post("/internal/reservations")
                .then()
                .statusCode(422)
                .body("error.details.errors.find { it.field == 'reservation_id' }.code", equalTo("too_long"))
                .body("error.details.errors.find { it.field == 'units' }.code", equalTo("invalid_type"))
                .body("error.details.errors.find { it.field == 'at' }.code", equalTo("invalid_value"));
        as(workspace, Mode.LIVE)
                .body("{}")
                .post("/internal/reservations")
                .then()
                .statusCode(422)
                .body("error.details.errors", hasSize(3));
        as(workspace, Mode.LIVE)
                .body("{\"at\":")
                .post("/internal/reservations/x/consume")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("invalid_request"));
        as(workspace, Mode.LIVE)
                .body("{\"units\":1}")
                .post("/internal/reservations/x/release")
                .then()
                .statusCode(422);
        as(workspace, Mode.LIVE)
                .contentType("text/plain")
                .body("at=now")
                .post("/internal/reservations/x/consume")
                .then()
                .statusCode(415);
        assertThat(publications(Mode.LIVE)).isEqualTo(meter(0, 0, 20, MARCH_END));
    }

    @Test
    void fiftyCallersRacingForTheLastTenUnitsGetExactlyTen() throws Exception {
        reserve(Mode.LIVE, "first-ten", "publications", 10, null).then().statusCode(201);
        List<String> bodies = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            bodies.add("{\"reservation_id\":\"race-" + i + "\",\"meter\":\"publications\",\"units\":1}");
        }
        List<Integer> statuses = race(bodies);
        assertThat(statuses).containsOnly(201, 429);
        assertThat(statuses.stream().filter(status -> status == 201)).hasSize(10);
        assertThat(statuses.stream().filter(status -> status == 429)).hasSize(40);
        assertThat(publications(Mode.LIVE)).isEqualTo(meter(0, 20, 20, MARCH_END));
        assertThat(count(
                        "select coalesce(sum(units), 0) from reservations where workspace_id = ? and status = 'reserved'",
                        workspace))
                .isEqualTo(20);
        assertThat(count(
                        "select used + reserved from usage_meters where workspace_id = ? and meter = 'publications'",
                        workspace))
                .isEqualTo(20);
    }

    @Test
    void concurrentFirstCallsWithOneIdReserveOnce() throws Exception {
        List<String> same = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            same.add("{\"reservation_id\":\"same\",\"meter\":\"publications\",\"units\":2}");
        }
        List<Integer> statuses = race(same);
        assertThat(statuses.stream().filter(status -> status == 201)).hasSize(1);
        assertThat(statuses.stream().filter(status -> status == 200)).hasSize(9);
        assertThat(publications(Mode.LIVE)).isEqualTo(meter(0, 2, 20, MARCH_END));

        // The same id on two meters at once: the meters' locks do not serialize them, the unique key does.
        List<Integer> split = race(List.of(
                "{\"reservation_id\":\"split\",\"meter\":\"publications\",\"units\":1}",
                "{\"reservation_id\":\"split\",\"meter\":\"new_connections\",\"units\":1}"));
        assertThat(split).containsExactlyInAnyOrder(201, 409);
        assertThat(count("select count(*) from reservations where workspace_id = ? and id = 'split'", workspace))
                .isEqualTo(1);
        assertThat(count("select coalesce(sum(reserved), 0) from usage_meters where workspace_id = ?", workspace))
                .isEqualTo(3);
        // Callers without a body or content type can still release.
        given().header("Authorization", TestTokens.bearer(workspace, Mode.LIVE))
                .post("/internal/reservations/split/release")
                .then()
                .statusCode(200)
                .body("data.status", equalTo("released"));
    }

    private List<Integer> race(List<String> bodies) throws Exception {
        return UsageTestSupport.race(workspace, Mode.LIVE, "/internal/reservations", bodies);
    }
}
