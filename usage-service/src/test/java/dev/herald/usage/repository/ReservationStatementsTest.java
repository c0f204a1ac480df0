package dev.herald.usage.repository;

import static dev.herald.usage.support.UsageTestSupport.count;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.common.auth.Mode;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.common.outbox.OutboxWriter;
import dev.herald.common.persistence.UniqueViolation;
import dev.herald.common.wire.UsagePeriod;
import dev.herald.testing.DatabaseCheck;
import dev.herald.testing.RealInfrastructure;
import dev.herald.usage.catalog.Meter;
import dev.herald.usage.model.ReservationEntity;
import dev.herald.usage.support.UsageTestSupport;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.vertx.RunOnVertxContext;
import io.quarkus.test.vertx.UniAsserter;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(value = RealInfrastructure.class, initArgs = @ResourceArg(name = "database", value = "usage_test"))
class ReservationStatementsTest {
    private static final UsagePeriod MARCH =
            new UsagePeriod(Instant.parse("2026-03-01T00:00:00Z"), Instant.parse("2026-04-01T00:00:00Z"));
    private static final UsagePeriod APRIL = new UsagePeriod(MARCH.end(), Instant.parse("2026-05-01T00:00:00Z"));
    private static final Instant NOW = Instant.parse("2026-03-10T12:00:00Z");
    private static final Instant LATER = NOW.plusSeconds(3600);

    @Inject
    ReservationStatements statements;

    private final String workspace = ResourceIds.newId(IdPrefix.WORKSPACE);

    private Uni<Boolean> reserve(UsagePeriod period, Long limit, String... ids) {
        List<ReservationEntity> created = new ArrayList<>();
        List<OutboxWriter.Entry> events = new ArrayList<>();
        for (String id : ids) {
            created.add(reservation(id, period));
            String eventId = ResourceIds.newId(IdPrefix.EVENT);
            events.add(new OutboxWriter.Entry(
                    eventId, "usage.reserved", key(), Map.of("type", "usage.reserved", "reservation", id), null));
        }
        return statements.reserveOnOneMeter(
                workspace, Mode.LIVE, Meter.PUBLICATIONS, period, limit, created, events, NOW);
    }

    private Uni<Boolean> consume(String id, String eventId) {
        return consumeAll(List.of(consumption(id, MARCH, eventId))).map(applied -> applied.contains(eventId));
    }

    private Uni<Set<String>> consumeAll(List<ReservationStatements.Consumption> consumptions) {
        return statements.consumeAllInTheirPeriods(consumptions, LATER);
    }

    private ReservationStatements.Consumption consumption(String id, UsagePeriod period, String eventId) {
        String announced = ResourceIds.newId(IdPrefix.EVENT);
        return new ReservationStatements.Consumption(
                reservation(id, period),
                eventId,
                new OutboxWriter.Entry(
                        announced, "usage.reserved", key(), Map.of("type", "usage.consumed", "reservation", id), null));
    }

    private ReservationEntity reservation(String id, UsagePeriod period) {
        return UsageTestSupport.reservedPublication(workspace, Mode.LIVE, id, period, NOW);
    }

    private String key() {
        return workspace + ":live";
    }

    /** used, reserved of the period's publications row; -1, -1 when there is no row. */
    private List<Long> meter(UsagePeriod period) throws Exception {
        long rows = count(
                "select count(*) from usage_meters where workspace_id = ? and period_start = cast(? as timestamptz)",
                workspace,
                period.start().toString());
        if (rows == 0) {
            return List.of(-1L, -1L);
        }
        return List.of(
                count(
                        "select used from usage_meters where workspace_id = ? and period_start = cast(? as timestamptz)",
                        workspace,
                        period.start().toString()),
                count(
                        "select reserved from usage_meters where workspace_id = ? and period_start = cast(? as timestamptz)",
                        workspace,
                        period.start().toString()));
    }

    private long reservations(String status) throws Exception {
        return count("select count(*) from reservations where workspace_id = ? and status = ?", workspace, status);
    }

    private long events(String type) throws Exception {
        return count("select count(*) from outbox where message_key = ? and payload->>'type' = ?", key(), type);
    }

    @Test
    @RunOnVertxContext
    void aBatchOnOneMeterIsAdmittedUpToTheAllowanceAndOneBeyondItWritesNothing(UniAsserter asserter) {
        asserter.assertThat(
                () -> reserve(MARCH, 3L, "pub_a", "pub_b"),
                admitted -> assertThat(admitted).isTrue());
        asserter.execute(DatabaseCheck.of(() -> {
            assertThat(meter(MARCH)).containsExactly(0L, 2L);
            assertThat(reservations("reserved")).isEqualTo(2);
            assertThat(events("usage.reserved")).isEqualTo(2);
        }));
        asserter.assertThat(
                () -> reserve(MARCH, 3L, "pub_c", "pub_d"),
                admitted -> assertThat(admitted).isFalse());
        asserter.execute(DatabaseCheck.of(() -> {
            assertThat(meter(MARCH)).containsExactly(0L, 2L);
            assertThat(reservations("reserved")).isEqualTo(2);
            assertThat(events("usage.reserved")).isEqualTo(2);
        }));
        asserter.assertThat(
                () -> reserve(MARCH, 3L, "pub_c"),
                admitted -> assertThat(admitted).isTrue());
        asserter.execute(DatabaseCheck.of(() -> assertThat(meter(MARCH)).containsExactly(0L, 3L)));
        // A period's first charge: more than the allowance creates no row; without a limit anything goes.
        asserter.assertThat(
                () -> reserve(APRIL, 3L, "pub_e", "pub_f", "pub_g", "pub_h"),
                admitted -> assertThat(admitted).isFalse());
        asserter.execute(DatabaseCheck.of(() -> assertThat(meter(APRIL)).containsExactly(-1L, -1L)));
        asserter.assertThat(
                () -> reserve(APRIL, null, "pub_e", "pub_f", "pub_g", "pub_h"),
                admitted -> assertThat(admitted).isTrue());
        asserter.execute(DatabaseCheck.of(() -> {
            assertThat(meter(APRIL)).containsExactly(0L, 4L);
            assertThat(reservations("reserved")).isEqualTo(7);
            assertThat(events("usage.reserved")).isEqualTo(7);
        }));
    }

    @Test
    @RunOnVertxContext
    void aBatchNamingAnExistingReservationFailsAndWritesNothing(UniAsserter asserter) {
        asserter.assertThat(
                () -> reserve(MARCH, null, "pub_a"),
                admitted -> assertThat(admitted).isTrue());
        asserter.assertFailedWith(
                () -> reserve(MARCH, null, "pub_new", "pub_a"),
                failure -> assertThat(UniqueViolation.causedBy(failure)).isTrue());
        asserter.execute(DatabaseCheck.of(() -> {
            assertThat(meter(MARCH)).containsExactly(0L, 1L);
            assertThat(reservations("reserved")).isEqualTo(1);
            assertThat(events("usage.reserved")).isEqualTo(1);
        }));
    }

    @Test
    @RunOnVertxContext
    void aReservationIsConsumedInItsPeriodOnceAndOnlyWhileReserved(UniAsserter asserter) {
        String published = ResourceIds.newId(IdPrefix.EVENT);
        asserter.assertThat(
                () -> reserve(MARCH, null, "pub_a", "pub_b", "pub_c"),
                admitted -> assertThat(admitted).isTrue());
        asserter.assertThat(
                () -> consume("pub_a", published),
                consumed -> assertThat(consumed).isTrue());
        asserter.execute(DatabaseCheck.of(() -> {
            assertThat(meter(MARCH)).containsExactly(1L, 2L);
            assertThat(count(
                            "select count(*) from reservations where workspace_id = ? and id = 'pub_a' and status = 'consumed' "
                                    + "and consumed_period_start = period_start and consumed_period_end = period_end and updated_at = cast(? as timestamptz)",
                            workspace,
                            LATER.toString()))
                    .isEqualTo(1);
            assertThat(count("select count(*) from processed_events where event_id = ?", published))
                    .isEqualTo(1);
            assertThat(events("usage.consumed")).isEqualTo(1);
        }));
        // The same event again, or for another reservation once applied, changes nothing.
        asserter.assertThat(
                () -> consume("pub_a", published),
                consumed -> assertThat(consumed).isFalse());
        asserter.assertThat(
                () -> consume("pub_b", published),
                consumed -> assertThat(consumed).isFalse());
        // A reservation released since it was read is not consumed, and its event is not marked either.
        String late = ResourceIds.newId(IdPrefix.EVENT);
        asserter.execute(DatabaseCheck.of(() -> {
            try (var connection = UsageTestSupport.database();
                    var statement = connection.prepareStatement(
                            "update reservations set status = 'released' where workspace_id = ? and id = 'pub_c'")) {
                statement.setString(1, workspace);
                statement.executeUpdate();
            }
        }));
        asserter.assertThat(
                () -> consume("pub_c", late), consumed -> assertThat(consumed).isFalse());
        asserter.execute(DatabaseCheck.of(() -> {
            assertThat(meter(MARCH)).containsExactly(1L, 2L);
            assertThat(reservations("reserved")).isEqualTo(1);
            assertThat(count("select count(*) from processed_events where event_id = ?", late))
                    .isZero();
            assertThat(events("usage.consumed")).isEqualTo(1);
        }));
    }

    @Test
    @RunOnVertxContext
    void aBatchConsumesEachReservationOnceAndCountsEachMeterRowByTheSumOfItsUnits(UniAsserter asserter) {
        String before = ResourceIds.newId(IdPrefix.EVENT);
        List<String> fresh = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            fresh.add(ResourceIds.newId(IdPrefix.EVENT));
        }
        asserter.assertThat(
                () -> reserve(MARCH, null, "pub_a", "pub_b", "pub_c", "pub_d"),
                admitted -> assertThat(admitted).isTrue());
        asserter.assertThat(
                () -> reserve(APRIL, null, "pub_e", "pub_f"),
                admitted -> assertThat(admitted).isTrue());
        asserter.assertThat(
                () -> consume("pub_d", before), consumed -> assertThat(consumed).isTrue());
        // Two meter rows; pub_a named by two events (one of them applies); pub_d consumed already, on an event
        // applied before.
        asserter.assertThat(
                () -> consumeAll(List.of(
                        consumption("pub_a", MARCH, fresh.get(0)),
                        consumption("pub_b", MARCH, fresh.get(1)),
                        consumption("pub_e", APRIL, fresh.get(2)),
                        consumption("pub_a", MARCH, fresh.get(3)),
                        consumption("pub_c", MARCH, fresh.get(4)),
                        consumption("pub_d", MARCH, before),
                        consumption("pub_f", APRIL, fresh.get(5)))),
                applied -> {
                    assertThat(applied).contains(fresh.get(1), fresh.get(2), fresh.get(4), fresh.get(5));
                    assertThat(applied).hasSize(5).doesNotContain(before);
                    assertThat(applied).containsAnyOf(fresh.get(0), fresh.get(3));
                });
        asserter.execute(DatabaseCheck.of(() -> {
            assertThat(meter(MARCH)).containsExactly(4L, 0L);
            assertThat(meter(APRIL)).containsExactly(2L, 0L);
            assertThat(reservations("consumed")).isEqualTo(6);
            assertThat(events("usage.consumed")).isEqualTo(6);
            assertThat(count(
                            "select count(*) from processed_events where event_id = any(string_to_array(?, ','))",
                            String.join(",", fresh)))
                    .isEqualTo(5);
        }));
        // The same batch again changes nothing.
        asserter.assertThat(
                () -> consumeAll(
                        List.of(consumption("pub_b", MARCH, fresh.get(1)), consumption("pub_e", APRIL, fresh.get(2)))),
                applied -> assertThat(applied).isEmpty());
        asserter.execute(DatabaseCheck.of(() -> {
            assertThat(meter(MARCH)).containsExactly(4L, 0L);
            assertThat(events("usage.consumed")).isEqualTo(6);
        }));
    }
}
