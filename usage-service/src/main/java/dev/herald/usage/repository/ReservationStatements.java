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
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The two reservation writes every post makes, each as one statement on the Vert.x pool: admitting a batch whose
 * items all charge one meter row, and consuming a batch of reservations, each in its own period. A single statement is its own
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

    /**
     * Consumes a batch of reservations, each in its own period. The meter rows are counted from {@code totals}, an
     * aggregate: it reads every row of {@code consumed} before the first meter is touched, so every reservation is
     * locked before any meter row, as in every other transition. The meters are then locked in key order
     * ({@code locked}), so two batches sharing meter rows wait on each other instead of deadlocking.
     */
    private static final NamedStatement CONSUME_ALL_IN_THEIR_PERIODS = NamedStatement.of("""
            with item as (
                select * from unnest(:workspace_ids::text[], :modes::text[], :ids::text[], :meters::text[],
                    :units::bigint[], :period_starts::timestamptz[], :event_ids::text[], :announced_ids::text[])
                    as i(workspace_id, mode, id, meter, units, period_start, event_id, announced_id)
                where %s),
            consumed as (
                update reservations r set status = 'consumed', consumed_period_start = r.period_start,
                    consumed_period_end = r.period_end, updated_at = :now
                from item i
                where r.workspace_id = i.workspace_id and r.mode = i.mode and r.id = i.id and r.status = 'reserved'
                    and r.meter = i.meter and r.units = i.units and r.period_start = i.period_start
                returning r.workspace_id, r.mode, r.meter, r.period_start, r.units, i.event_id, i.announced_id),
            totals as (
                select workspace_id, mode, meter, period_start, sum(units)::bigint as units
                from consumed group by workspace_id, mode, meter, period_start),
            locked as (
                select m.workspace_id, m.mode, m.meter, m.period_start
                from usage_meters m join totals t using (workspace_id, mode, meter, period_start)
                order by m.workspace_id, m.mode, m.meter, m.period_start
                for update of m),
            counted as (
                update usage_meters m set used = m.used + t.units, reserved = m.reserved - t.units, updated_at = :now
                from totals t join locked l using (workspace_id, mode, meter, period_start)
                where m.workspace_id = t.workspace_id and m.mode = t.mode and m.meter = t.meter
                    and m.period_start = t.period_start
                returning 1),
            marked as (%s),
            recorded as (%s)
            select event_id from consumed""".formatted(
                    ProcessedEvents.notProcessed("i.event_id"),
                    ProcessedEvents.record("select event_id from consumed"),
                    OutboxWriter.insertAllWhen("e.event_id in (select announced_id from consumed)")));

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
     * A reservation as read ({@code reserved}, with these units), to be consumed in its own period on the event
     * {@code eventId}, which {@code announced} (its {@code usage.consumed}) then tells.
     */
    public record Consumption(ReservationEntity reservation, String eventId, OutboxWriter.Entry announced) {}

    /**
     * Consumes each of {@code consumptions} in its own period, moving its units from reserved to used on that
     * period's meter row, records its event as processed and appends its {@code usage.consumed}, all in one
     * statement; answers the events it applied. One is left alone, and its event not marked, when its reservation
     * is no longer reserved as read, or its event was applied before, or another item of the batch names the same
     * reservation (one of them is applied). Fails with a unique violation, writing nothing, when a concurrent
     * delivery marked one of the events since the statement checked.
     */
    public Uni<Set<String>> consumeAllInTheirPeriods(List<Consumption> consumptions, Instant now) {
        int count = consumptions.size();
        String[] workspaceIds = new String[count];
        String[] modes = new String[count];
        String[] ids = new String[count];
        String[] meters = new String[count];
        Long[] units = new Long[count];
        Instant[] periodStarts = new Instant[count];
        String[] eventIds = new String[count];
        String[] announcedIds = new String[count];
        List<OutboxWriter.Entry> announced = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            Consumption consumption = consumptions.get(i);
            ReservationEntity reservation = consumption.reservation();
            workspaceIds[i] = reservation.workspaceId;
            modes[i] = reservation.mode;
            ids[i] = reservation.id;
            meters[i] = reservation.meter;
            units[i] = reservation.units;
            periodStarts[i] = reservation.periodStart;
            eventIds[i] = consumption.eventId();
            announcedIds[i] = consumption.announced().eventId();
            announced.add(consumption.announced());
        }
        NamedStatement.Parameters parameters = CONSUME_ALL_IN_THEIR_PERIODS
                .parameters()
                .set("workspace_ids", workspaceIds)
                .set("modes", modes)
                .set("ids", ids)
                .set("meters", meters)
                .set("units", units)
                .set("period_starts", periodStarts)
                .set("event_ids", eventIds)
                .set("announced_ids", announcedIds)
                .set("now", now);
        return outbox.bindAll(parameters, announced).execute(pool).map(rows -> {
            Set<String> applied = new HashSet<>();
            rows.forEach(row -> applied.add(row.getString("event_id")));
            return applied;
        });
    }
}
