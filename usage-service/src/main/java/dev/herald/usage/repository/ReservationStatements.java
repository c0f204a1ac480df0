package dev.herald.usage.repository;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.auth.Mode;
import dev.herald.common.messaging.ProcessedEvents;
import dev.herald.common.outbox.OutboxWriter;
import dev.herald.common.persistence.NamedStatement;
import dev.herald.common.wire.UsagePeriod;
import dev.herald.usage.catalog.Meter;
import dev.herald.usage.model.ReservationEntity;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;

/**
 * The two reservation writes every post makes, each as one statement on the Vert.x pool: admitting a batch whose
 * items all charge one meter row, and consuming a reservation in its own period. A single statement is its own
 * transaction, so neither pays for BEGIN and COMMIT round trips, nor for Hibernate's loading, dirty checking and
 * flushing of the rows it changes. Each writes everything (rows, meter, {@code usage.*} events, processed mark) or
 * nothing; when it writes nothing, the caller answers through the general transactional path, which handles every
 * case (replays, conflicts, other periods, media).
 */
@ApplicationScoped
public class ReservationStatements {
    private static final NamedStatement RESERVE_ON_ONE_METER =
            NamedStatement.of("""
            with meter as (
                insert into usage_meters as m (workspace_id, mode, meter, period_start, period_end, used, reserved,
                    updated_at)
                select :workspace_id, :mode, :meter, :period_start, :period_end, 0, :units, :now
                where :limit::bigint is null or :units <= :limit::bigint
                on conflict (workspace_id, mode, meter, period_start) do update
                    set reserved = m.reserved + excluded.reserved, updated_at = excluded.updated_at
                    where :limit::bigint is null or m.used + m.reserved + excluded.reserved <= :limit::bigint
                returning m.used, m.reserved),
            created as (
                insert into reservations (workspace_id, mode, id, meter, units, status, period_start, period_end,
                    created_at, updated_at)
                select :workspace_id, :mode, r.id, :meter, r.units, 'reserved', :period_start, :period_end, :now, :now
                from unnest(:ids::text[], :units_of::bigint[]) as r(id, units)
                where exists (select 1 from meter)),
            recorded as (%s)
            select count(*) as admitted from meter""".formatted(OutboxWriter.insertAllJoinedWith(
                    "meter m",
                    // usage.reserved tells the meter as this statement leaves it (webhooks' thresholds).
                    "jsonb_set(e.payload::jsonb, '{meter_state}', jsonb_build_object('used', m.used,"
                            + " 'reserved', m.reserved, 'limit', :limit::bigint))")));

    private static final NamedStatement CONSUME_IN_ITS_PERIOD = NamedStatement.of("""
            with consumed as (
                update reservations set status = 'consumed', consumed_period_start = period_start,
                    consumed_period_end = period_end, updated_at = :now
                where workspace_id = :workspace_id and mode = :mode and id = :id and status = 'reserved'
                    and meter = :meter and units = :units and period_start = :period_start
                    and %s
                returning units),
            counted as (
                update usage_meters m set used = m.used + c.units, reserved = m.reserved - c.units, updated_at = :now
                from consumed c
                where m.workspace_id = :workspace_id and m.mode = :mode and m.meter = :meter
                    and m.period_start = :period_start
                returning 1),
            marked as (%s),
            recorded as (%s)
            select count(*) as consumed from counted""".formatted(
                    ProcessedEvents.notProcessed(":event_id"),
                    ProcessedEvents.record("select :event_id from counted"),
                    OutboxWriter.insertOnePerRowOf("counted")));

    private final Pool pool;
    private final OutboxWriter outbox;

    public ReservationStatements(Pool pool, ObjectMapper mapper) {
        this.pool = pool;
        this.outbox = new OutboxWriter(mapper);
    }

    /**
     * Reserves every one of {@code created} (new rows, all on {@code meter} in {@code period}) and appends their
     * {@code events}, if the period's allowance holds them all: {@code used + reserved + units <= limit} on the
     * meter row, which the statement creates when it is the period's first charge and otherwise updates under its
     * row lock, so concurrent callers never overshoot. False when it does not: then nothing is written. Fails with
     * a unique violation, writing nothing, when one of the ids exists (a replay, or a concurrent first call). Each
     * event's {@code meter_state} is set here to the meter row as the statement leaves it.
     */
    public Uni<Boolean> reserveOnOneMeter(
            String workspaceId,
            Mode mode,
            Meter meter,
            UsagePeriod period,
            Long limit,
            List<ReservationEntity> created,
            List<OutboxWriter.Entry> events,
            Instant now) {
        long units = 0;
        String[] ids = new String[created.size()];
        Long[] unitsOf = new Long[created.size()];
        for (int i = 0; i < created.size(); i++) {
            ids[i] = created.get(i).id;
            unitsOf[i] = created.get(i).units;
            units += created.get(i).units;
        }
        NamedStatement.Parameters parameters = RESERVE_ON_ONE_METER
                .parameters()
                .set("workspace_id", workspaceId)
                .set("mode", mode.wireName())
                .set("meter", meter.wireName())
                .set("period_start", period.start())
                .set("period_end", period.end())
                .set("units", units)
                .set("now", now)
                .set("limit", limit)
                .set("ids", ids)
                .set("units_of", unitsOf);
        return outbox.bindAll(parameters, events)
                .execute(pool)
                .map(rows -> rows.iterator().next().getLong("admitted") > 0);
    }

    /**
     * Consumes {@code reservation} (as read: {@code reserved}, with these units) in its own period, moving its
     * units from reserved to used on that period's meter row, records {@code eventId} as processed and appends
     * {@code event}, in one statement. The reservation's row is locked before the meter's, as in every other
     * transition. False when the reservation is no longer reserved as read, or the event was applied before: then
     * nothing is written.
     */
    public Uni<Boolean> consumeInItsPeriod(
            ReservationEntity reservation, Instant now, String eventId, OutboxWriter.Entry event) {
        NamedStatement.Parameters parameters = CONSUME_IN_ITS_PERIOD
                .parameters()
                .set("workspace_id", reservation.workspaceId)
                .set("mode", reservation.mode)
                .set("id", reservation.id)
                .set("meter", reservation.meter)
                .set("units", reservation.units)
                .set("period_start", reservation.periodStart)
                .set("now", now)
                .set("event_id", eventId);
        return outbox.bind(parameters, event)
                .execute(pool)
                .map(rows -> rows.iterator().next().getLong("consumed") > 0);
    }
}
