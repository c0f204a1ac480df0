package dev.herald.usage.rest;

import static dev.herald.usage.support.UsageTestSupport.as;
import static dev.herald.usage.support.UsageTestSupport.connectAccounts;
import static dev.herald.usage.support.UsageTestSupport.count;
import static dev.herald.usage.support.UsageTestSupport.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
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
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.StringJoiner;
import org.hibernate.reactive.mutiny.Mutiny;
import org.hibernate.stat.Statistics;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code POST /internal/reservations/batch}: one post's publications, all or nothing. */
@QuarkusTest
@QuarkusTestResource(value = RealInfrastructure.class, initArgs = @ResourceArg(name = "database", value = "usage_test"))
class ReservationBatchResourceTest {
    private static final String MARCH = "2026-03-01T00:00:00Z";
    private static final String APRIL = "2026-04-01T00:00:00Z";
    private static final String IN_APRIL = "2026-04-15T10:00:00Z";

    @Inject
    MutableClock clock;

    @Inject
    Mutiny.SessionFactory sessionFactory;

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

    /** One item: {@code id}, publications, {@code units}, at {@code at} (null: now). */
    private static String item(String id, long units, String at) {
        return "{\"reservation_id\":\"" + id + "\",\"meter\":\"publications\",\"units\":" + units
                + (at == null ? "" : ",\"at\":\"" + at + "\"") + "}";
    }

    private static String batch(boolean requireCapacity, String... items) {
        StringJoiner joined =
                new StringJoiner(",", "{\"reservations\":[", "],\"require_account_capacity\":" + requireCapacity + "}");
        for (String item : items) {
            joined.add(item);
        }
        return joined.toString();
    }

    private Response post(Mode mode, String body) {
        return as(workspace, mode).body(body).post("/internal/reservations/batch");
    }

    private long reserved(Mode mode, String periodStart) throws Exception {
        return count(
                "select coalesce(sum(reserved), 0) from usage_meters where workspace_id = ? and mode = ? "
                        + "and meter = 'publications' and period_start = cast(? as timestamptz)",
                workspace,
                mode.wireName(),
                periodStart);
    }

    private long events() throws Exception {
        return count("select count(*) from outbox where message_key = ?", workspace + ":live");
    }

    private long reservations() throws Exception {
        return count("select count(*) from reservations where workspace_id = ?", workspace);
    }

    @Test
    void batchReservesEveryItemInItsPeriodWithOneEventEach() throws Exception {
        JsonNode answer = json(post(
                        Mode.LIVE,
                        batch(
                                true,
                                item("pst_1-acc_1", 1, null),
                                item("pst_1-acc_2", 1, null),
                                item("pst_2-acc_1", 1, IN_APRIL)))
                .then()
                .statusCode(201)
                .extract()
                .response());

        JsonNode data = answer.get("data");
        assertThat(data).hasSize(3);
        assertThat(data.get(0)).isEqualTo(json("""
                {"id":"pst_1-acc_1","meter":"publications","units":1,"status":"reserved",
                 "period":{"start":"2026-03-01T00:00:00Z","end":"2026-04-01T00:00:00Z"},"consumed_period":null,
                 "created_at":"2026-03-10T12:00:00Z","updated_at":"2026-03-10T12:00:00Z"}"""));
        assertThat(data.get(1).get("id").asText()).isEqualTo("pst_1-acc_2");
        assertThat(data.get(2).get("id").asText()).isEqualTo("pst_2-acc_1");
        assertThat(data.get(2).get("period").get("start").asText()).isEqualTo(APRIL);

        assertThat(reserved(Mode.LIVE, MARCH)).isEqualTo(2);
        assertThat(reserved(Mode.LIVE, APRIL)).isEqualTo(1);
        assertThat(count(
                        "select count(*) from outbox where message_key = ? and payload->>'type' = 'usage.reserved'",
                        workspace + ":live"))
                .isEqualTo(3);
        as(workspace, Mode.LIVE)
                .get("/internal/reservations/pst_1-acc_2")
                .then()
                .statusCode(200)
                .body("data.status", equalTo("reserved"));
        // Another mode does not see them.
        as(workspace, Mode.TEST)
                .get("/internal/reservations/pst_1-acc_2")
                .then()
                .statusCode(404);
    }

    @Test
    void batchReservesNothingWhenOneItemWouldExceedTheAllowance() throws Exception {
        as(workspace, Mode.LIVE)
                .body(item("earlier", 18, null))
                .post("/internal/reservations")
                .then()
                .statusCode(201);
        long eventsBefore = events();

        // Each item fits alone; together they do not.
        Response refused = post(
                Mode.LIVE,
                batch(false, item("a", 1, null), item("b", 1, IN_APRIL), item("c", 1, null), item("d", 1, null)));
        refused.then().statusCode(429).header("Retry-After", "1857600");
        assertThat(json(refused).get("error")).isEqualTo(json("""
                {"code":"usage_limit_exceeded","message":"The publications allowance of this period has 2 left, fewer than this needs.",
                 "details":{"metric":"publications","mode":"live","plan":"free","limit":20,"used":0,"reserved":18,
                  "remaining":2,"reset_at":"2026-04-01T00:00:00Z","upgrade_url":"https://herald.dev/pricing",
                  "retry_after_seconds":1857600}}"""));

        assertThat(reserved(Mode.LIVE, MARCH)).isEqualTo(18);
        // The April item had room, but nothing of a refused batch is kept, not even the new period's meter row.
        assertThat(count(
                        "select count(*) from usage_meters where workspace_id = ? and period_start = cast(? as timestamptz)",
                        workspace,
                        APRIL))
                .isZero();
        assertThat(reservations()).isEqualTo(1);
        assertThat(events()).isEqualTo(eventsBefore);

        // What fits is admitted.
        post(Mode.LIVE, batch(false, item("a", 1, null), item("b", 1, IN_APRIL), item("c", 1, null)))
                .then()
                .statusCode(201);
        assertThat(reserved(Mode.LIVE, MARCH)).isEqualTo(20);
    }

    @Test
    void batchRefusedInALaterPeriodGivesThatPeriodsDetails() {
        post(Mode.LIVE, batch(false, item("april-full", 20, IN_APRIL))).then().statusCode(201);
        post(Mode.LIVE, batch(false, item("march", 1, null), item("april-one-more", 1, "2026-04-20T00:00:00Z")))
                .then()
                .statusCode(429)
                .header(
                        "Retry-After",
                        Long.toString(Duration.between(
                                        Instant.parse("2026-03-10T12:00:00Z"), Instant.parse("2026-05-01T00:00:00Z"))
                                .toSeconds()))
                .body("error.details.reserved", equalTo(20))
                .body("error.details.reset_at", equalTo("2026-05-01T00:00:00Z"));
        as(workspace, Mode.LIVE).get("/internal/reservations/march").then().statusCode(404);
    }

    @Test
    void batchReplaysAnswerTheReservationsAsTheyAreAndOtherUnitsAreAConflict() throws Exception {
        String body = batch(true, item("pst_9-acc_1", 1, null), item("pst_9-acc_2", 1, null));
        JsonNode first =
                json(post(Mode.LIVE, body).then().statusCode(201).extract().response());
        clock.set(Instant.parse("2026-03-10T12:05:00Z"));
        JsonNode again =
                json(post(Mode.LIVE, body).then().statusCode(200).extract().response());
        assertThat(again).isEqualTo(first);
        assertThat(reserved(Mode.LIVE, MARCH)).isEqualTo(2);

        // One new item beside a known one: the new one is reserved, the known one answered as it is.
        JsonNode mixed = json(post(Mode.LIVE, batch(false, item("pst_9-acc_2", 1, null), item("pst_9-acc_3", 1, null)))
                .then()
                .statusCode(201)
                .extract()
                .response());
        assertThat(mixed.get("data").get(0)).isEqualTo(first.get("data").get(1));
        assertThat(mixed.get("data").get(1).get("created_at").asText()).isEqualTo("2026-03-10T12:05:00Z");
        assertThat(reserved(Mode.LIVE, MARCH)).isEqualTo(3);

        long eventsBefore = events();
        post(Mode.LIVE, batch(false, item("pst_9-acc_4", 1, null), item("pst_9-acc_1", 2, null)))
                .then()
                .statusCode(409)
                .body("error.code", equalTo("conflict"))
                .body("error.details.reservation_id", equalTo("pst_9-acc_1"))
                .body("error.details.units", equalTo(1));
        as(workspace, Mode.LIVE)
                .get("/internal/reservations/pst_9-acc_4")
                .then()
                .statusCode(404);
        assertThat(reserved(Mode.LIVE, MARCH)).isEqualTo(3);
        assertThat(events()).isEqualTo(eventsBefore);
    }

    @Test
    void batchWithAccountCapacityRefusesALiveWorkspaceOverItsPlan() throws Exception {
        // Three live accounts on the free plan's two slots (a downgrade left them connected).
        connectAccounts(workspace, Mode.LIVE, 3);
        Response refused = post(Mode.LIVE, batch(true, item("pst_1-acc_1", 1, null)));
        refused.then().statusCode(409);
        assertThat(json(refused).get("error").get("code").asText()).isEqualTo("account_capacity_exceeded");
        assertThat(json(refused).get("error").get("details")).isEqualTo(json("""
                {"mode":"live","plan":"free","limit":2,"connected":3,"upgrade_url":"https://herald.dev/pricing"}"""));
        assertThat(reservations()).isZero();
        assertThat(events()).isZero();

        // Asked without the capacity requirement (not a post), the same workspace reserves.
        post(Mode.LIVE, batch(false, item("pst_1-acc_1", 1, null))).then().statusCode(201);
    }

    @Test
    void batchWithAccountCapacityAdmitsAWorkspaceAtItsLimitAndTestModeAlways() throws Exception {
        connectAccounts(workspace, Mode.LIVE, 2);
        post(Mode.LIVE, batch(true, item("at-limit", 1, null))).then().statusCode(201);
        // Test mode has no capacity refusal, even with more accounts than its ten.
        connectAccounts(workspace, Mode.TEST, 12);
        post(Mode.TEST, batch(true, item("sim", 1, null)))
                .then()
                .statusCode(201)
                .body("data[0].status", equalTo("reserved"));
    }

    @Test
    void badBatchesListEveryFailingFieldAndReserveNothing() throws Exception {
        post(
                        Mode.LIVE,
                        "{\"reservations\":[" + item("ok", 1, null)
                                + ",{\"reservation_id\":\"has space\",\"meter\":\"x\"},"
                                + "{\"reservation_id\":\"z\",\"meter\":\"publications\",\"units\":0,\"at\":\"2030-01-01T00:00:00Z\",\"extra\":1},"
                                + item("ok", 1, null) + ",7],\"require_account_capacity\":\"yes\",\"mode\":\"live\"}")
                .then()
                .statusCode(422)
                .body("error.code", equalTo("validation_failed"))
                .body(
                        "error.details.errors.field",
                        containsInAnyOrder(
                                "reservations[1].reservation_id",
                                "reservations[1].meter",
                                "reservations[1].units",
                                "reservations[2].units",
                                "reservations[2].at",
                                "reservations[2].extra",
                                "reservations[3].reservation_id",
                                "reservations[4]",
                                "require_account_capacity",
                                "mode"))
                .body(
                        "error.details.errors.find { it.field == 'reservations[2].units' }.code",
                        equalTo("invalid_value"))
                .body(
                        "error.details.errors.find { it.field == 'reservations[2].units' }.message",
                        equalTo("reservations[2].units must be an integer from 1 to 1000000000000000."))
                .body(
                        "error.details.errors.find { it.field == 'reservations[3].reservation_id' }.code",
                        equalTo("invalid_value"))
                .body("error.details.errors.find { it.field == 'reservations[4]' }.code", equalTo("invalid_type"));
        post(Mode.LIVE, "{\"reservations\":[]}")
                .then()
                .statusCode(422)
                .body("error.details.errors[0].field", equalTo("reservations"))
                .body("error.details.errors[0].code", equalTo("too_short"));
        post(Mode.LIVE, "{}").then().statusCode(422).body("error.details.errors[0].code", equalTo("required"));
        String[] tooMany = new String[101];
        for (int i = 0; i < tooMany.length; i++) {
            tooMany[i] = item("many-" + i, 1, null);
        }
        post(Mode.LIVE, batch(false, tooMany))
                .then()
                .statusCode(422)
                .body("error.details.errors", hasSize(1))
                .body("error.details.errors[0].code", equalTo("too_long"));
        post(Mode.LIVE, "{\"reservations\":{}}")
                .then()
                .statusCode(422)
                .body("error.details.errors[0].code", equalTo("invalid_type"));
        assertThat(reservations()).isZero();
    }

    @Test
    void concurrentBatchesNeverReserveBeyondTheAllowance() throws Exception {
        // Thirty posts of three destinations each: two in March and one in April, listed in varying orders so
        // that the batches would lock the two periods' rows in opposite orders if they locked them as listed.
        List<String> bodies = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            String april = item("race-" + i + "-c", 1, IN_APRIL);
            String march1 = item("race-" + i + "-a", 1, null);
            String march2 = item("race-" + i + "-b", 1, null);
            bodies.add(i % 2 == 0 ? batch(true, april, march1, march2) : batch(true, march1, march2, april));
        }
        List<Integer> statuses = race(bodies);
        assertThat(statuses).containsOnly(201, 429);
        // March holds 20 units: ten posts of two.
        assertThat(statuses).filteredOn(status -> status == 201).hasSize(10);
        assertThat(reserved(Mode.LIVE, MARCH)).isEqualTo(20);
        assertThat(reserved(Mode.LIVE, APRIL)).isEqualTo(10);
        assertThat(count(
                        "select coalesce(sum(units), 0) from reservations where workspace_id = ? and status = 'reserved' "
                                + "and period_start = cast(? as timestamptz)",
                        workspace,
                        MARCH))
                .isEqualTo(20);
        assertThat(reservations()).isEqualTo(30);
        assertThat(events()).isEqualTo(30);
    }

    @Test
    void aNewPostsBatchIsOneStatementAndOtherBatchesTakeTheTransaction() throws Exception {
        Statistics statistics = sessionFactory.getStatistics();
        statistics.setStatisticsEnabled(true);
        try {
            long inserted = statistics.getEntityInsertCount();
            post(Mode.LIVE, batch(true, item("pst_1-acc_1", 1, null), item("pst_1-acc_2", 1, null)))
                    .then()
                    .statusCode(201);
            // Written by ReservationStatements, not by Hibernate.
            assertThat(statistics.getEntityInsertCount()).isEqualTo(inserted);
            assertThat(reserved(Mode.LIVE, MARCH)).isEqualTo(2);
            assertThat(events()).isEqualTo(2);

            // A replay, and a batch over two periods, are answered by the transaction.
            post(Mode.LIVE, batch(true, item("pst_1-acc_1", 1, null), item("pst_1-acc_2", 1, null)))
                    .then()
                    .statusCode(200);
            post(Mode.LIVE, batch(true, item("pst_2-acc_1", 1, null), item("pst_2-acc_2", 1, IN_APRIL)))
                    .then()
                    .statusCode(201);
            assertThat(statistics.getEntityInsertCount()).isEqualTo(inserted + 2);
            assertThat(reserved(Mode.LIVE, MARCH)).isEqualTo(3);
            assertThat(reserved(Mode.LIVE, APRIL)).isEqualTo(1);
            assertThat(events()).isEqualTo(4);
        } finally {
            statistics.setStatisticsEnabled(false);
        }
    }

    /** How many of the workspace's live {@code usage.reserved} events in {@code period} tell this meter state. */
    private long reservedEventsTelling(String period, long used, long reserved, long limit) throws Exception {
        return count(
                "select count(*) from outbox where message_key = ? and payload->>'type' = 'usage.reserved'"
                        + " and payload->'reservation'->'period'->>'start' = ?"
                        + " and payload->'meter_state' = jsonb_build_object('used', ?, 'reserved', ?, 'limit', ?)",
                workspace + ":live",
                period,
                used,
                reserved,
                limit);
    }

    @Test
    void eachReservedEventTellsItsMeterAsTheBatchLeftItOnBothPaths() throws Exception {
        // One statement: both items on March's meter row (the free plan allows 20 publications).
        post(Mode.LIVE, batch(true, item("pst_1-acc_1", 1, null), item("pst_1-acc_2", 1, null)))
                .then()
                .statusCode(201);
        assertThat(reservedEventsTelling(MARCH, 0, 2, 20)).isEqualTo(2);

        // The transaction: two periods.
        post(Mode.LIVE, batch(true, item("pst_2-acc_1", 1, null), item("pst_2-acc_2", 1, IN_APRIL)))
                .then()
                .statusCode(201);
        assertThat(reservedEventsTelling(MARCH, 0, 3, 20)).isEqualTo(1);
        assertThat(reservedEventsTelling(APRIL, 0, 1, 20)).isEqualTo(1);
    }

    @Test
    void concurrentFirstChargesOfAPeriodNeverReserveBeyondTheAllowance() throws Exception {
        // Thirty posts of two destinations each, all in April, whose meter row does not exist yet: the free plan's
        // twenty publications hold ten of them.
        List<String> bodies = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            bodies.add(batch(false, item("first-" + i + "-a", 1, IN_APRIL), item("first-" + i + "-b", 1, IN_APRIL)));
        }
        List<Integer> statuses = race(bodies);
        assertThat(statuses).containsOnly(201, 429);
        assertThat(statuses).filteredOn(status -> status == 201).hasSize(10);
        assertThat(reserved(Mode.LIVE, APRIL)).isEqualTo(20);
        assertThat(reservations()).isEqualTo(20);
        assertThat(events()).isEqualTo(20);
        post(Mode.LIVE, batch(false, item("first-late", 1, IN_APRIL)))
                .then()
                .statusCode(429)
                .body("error.code", equalTo("usage_limit_exceeded"))
                .body("error.details.used", equalTo(0))
                .body("error.details.reserved", equalTo(20))
                .body("error.details.remaining", equalTo(0));
    }

    @Test
    void manyMorePostsAtOnceThanTheServiceHasConnectionsAreEachAdmitted() throws Exception {
        // Five times the pool's 20 connections: a request must not hold one connection while it waits for another.
        List<String> bodies = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            bodies.add(batch(false, item("crowd-" + i, 1, null)));
        }
        long started = System.nanoTime();
        List<Integer> statuses = UsageTestSupport.race(
                workspace, Mode.TEST, Collections.nCopies(bodies.size(), "/internal/reservations/batch"), bodies);
        assertThat(statuses).containsOnly(201);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(30));
        assertThat(reserved(Mode.TEST, MARCH)).isEqualTo(100);
    }

    @Test
    void concurrentBatchesAndSingleReservationsShareTheAllowance() throws Exception {
        List<String> bodies = new ArrayList<>();
        List<String> paths = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
            if (i % 3 == 0) {
                bodies.add(item("single-" + i, 1, null));
                paths.add("/internal/reservations");
            } else {
                bodies.add(batch(false, item("pair-" + i + "-a", 1, null), item("pair-" + i + "-b", 1, null)));
                paths.add("/internal/reservations/batch");
            }
        }
        List<Integer> statuses = race(bodies, paths);
        assertThat(statuses).containsOnly(201, 429);
        long reservedNow = reserved(Mode.LIVE, MARCH);
        assertThat(reservedNow).isLessThanOrEqualTo(20).isGreaterThanOrEqualTo(19);
        assertThat(count("select coalesce(sum(units), 0) from reservations where workspace_id = ?", workspace))
                .isEqualTo(reservedNow);
    }

    private List<Integer> race(List<String> bodies) throws Exception {
        return UsageTestSupport.race(workspace, Mode.LIVE, "/internal/reservations/batch", bodies);
    }

    private List<Integer> race(List<String> bodies, List<String> paths) throws Exception {
        return UsageTestSupport.race(workspace, Mode.LIVE, paths, bodies);
    }
}
