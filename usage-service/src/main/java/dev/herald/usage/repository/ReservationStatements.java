package dev.herald.usage.repository;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.auth.Mode;
import dev.herald.common.outbox.OutboxWriter;
import dev.herald.common.persistence.SqlParameters;
import dev.herald.common.wire.UsagePeriod;
import dev.herald.usage.catalog.Meter;
import dev.herald.usage.model.ReservationEntity;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
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
        Tuple parameters = SqlParameters.of(
                workspaceId,
                mode.wireName(),
                meter.wireName(),
                period.start(),
                period.end(),
                units,
                now,
                limit,
                ids,
                unitsOf);
        outbox.bindAll(parameters, events);
        return pool.preparedQuery("""
                        with meter as (
                            insert into usage_meters as m (workspace_id, mode, meter, period_start, period_end, used, reserved, updated_at)
                            select $1, $2, $3, $4, $5, 0, $6, $7 where $8::bigint is null or $6 <= $8::bigint
                            on conflict (workspace_id, mode, meter, period_start) do update
                                set reserved = m.reserved + excluded.reserved, updated_at = excluded.updated_at
                                where $8::bigint is null or m.used + m.reserved + excluded.reserved <= $8::bigint
                            returning m.used, m.reserved),
                        created as (
                            insert into reservations (workspace_id, mode, id, meter, units, status, period_start, period_end,
                                created_at, updated_at)
                            select $1, $2, r.id, $3, r.units, 'reserved', $4, $5, $7, $7
                            from unnest($9::text[], $10::bigint[]) as r(id, units)
                            where exists (select 1 from meter)),
                        recorded as (
                            insert into outbox (event_id, topic, message_key, payload, trace_parent)
                            select e.event_id, e.topic, e.message_key,
                                jsonb_set(e.payload::jsonb, '{meter_state}',
                                    jsonb_build_object('used', m.used, 'reserved', m.reserved, 'limit', $8::bigint)),
                                e.trace_parent
                            from unnest($11::text[], $12::text[], $13::text[], $14::text[], $15::text[])
                                as e(event_id, topic, message_key, payload, trace_parent)
                            cross join meter m)
                        select count(*) as admitted from meter""")
                .execute(parameters)
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
            ReservationEntity reservation, Instant now, String eventId, String topic, OutboxWriter.Entry event) {
        return pool.preparedQuery("""
                        with consumed as (
                            update reservations set status = 'consumed', consumed_period_start = period_start,
                                consumed_period_end = period_end, updated_at = $7
                            where workspace_id = $1 and mode = $2 and id = $3 and status = 'reserved' and meter = $4
                                and units = $5 and period_start = $6
                                and not exists (select 1 from processed_events where event_id = $8)
                            returning units),
                        counted as (
                            update usage_meters m set used = m.used + c.units, reserved = m.reserved - c.units, updated_at = $7
                            from consumed c
                            where m.workspace_id = $1 and m.mode = $2 and m.meter = $4 and m.period_start = $6
                            returning 1),
                        marked as (
                            insert into processed_events (event_id, topic) select $8, $9 from counted),
                        recorded as (
                            insert into outbox (event_id, topic, message_key, payload, trace_parent)
                            select $10, $11, $12, $13::text::jsonb, $14 from counted)
                        select count(*) as consumed from counted""")
                .execute(outbox.bind(
                        SqlParameters.of(
                                reservation.workspaceId,
                                reservation.mode,
                                reservation.id,
                                reservation.meter,
                                reservation.units,
                                reservation.periodStart,
                                now,
                                eventId,
                                topic),
                        event))
                .map(rows -> rows.iterator().next().getLong("consumed") > 0);
    }
}
