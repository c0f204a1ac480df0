package dev.herald.webhooks.repository;

import dev.herald.common.persistence.NamedStatement;
import dev.herald.common.wire.UsageThreshold;
import dev.herald.webhooks.repository.EventStatements.DirectLeases;
import dev.herald.webhooks.repository.EventStatements.IncomingEvent;
import dev.herald.webhooks.repository.EventStatements.Intake;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The thresholds each meter has reached, one row per workspace, mode, meter, period and threshold: the primary key
 * makes {@code usage.threshold_reached} once only, under redeliveries and with replicas. A row is kept for the whole
 * period (longer than {@code processed_events} remembers anything), and written whether or not an endpoint wants the
 * event: an endpoint that subscribes later in the period is not told of a threshold reached before.
 */
@ApplicationScoped
public class UsageThresholdStatements {
    private static final NamedStatement RECORD = NamedStatement.of("""
            insert into usage_thresholds (workspace_id, mode, meter, period_start, period_end, threshold, event_id,
                reached_at)
            select r.workspace_id, r.mode, r.meter, r.period_start, r.period_end, r.threshold, r.event_id, :now
            from unnest(:workspace_ids::text[], :modes::text[], :meters::text[], :period_starts::timestamptz[],
                :period_ends::timestamptz[], :thresholds::int[], :event_ids::text[])
                as r(workspace_id, mode, meter, period_start, period_end, threshold, event_id)
            on conflict do nothing
            returning event_id""");

    private static final NamedStatement DELETE_ENDED_BEFORE = NamedStatement.of("""
            delete from usage_thresholds where (workspace_id, mode, meter, period_start, threshold) in (
                select workspace_id, mode, meter, period_start, threshold from usage_thresholds
                where period_end < :cutoff order by period_end limit :limit for update skip locked)""");

    private final EventStatements events;
    private final Pool pool;

    public UsageThresholdStatements(EventStatements events, Pool pool) {
        this.events = events;
        this.pool = pool;
    }

    /** A threshold a meter reached, and its webhook event (whose id is the row's). */
    public record Reached(String workspaceId, UsageThreshold threshold, IncomingEvent event) {}

    /** Records the thresholds not reached before and stores their events, in one transaction. */
    public Uni<Intake> intake(List<Reached> reached, Instant now, DirectLeases leases) {
        return events.intakeOnce(
                reached.stream().map(Reached::event).toList(),
                now,
                leases,
                connection -> record(connection, reached, now));
    }

    /** Inserts the rows; answers the event ids of those inserted now. */
    private static Uni<Set<String>> record(SqlConnection connection, List<Reached> reached, Instant now) {
        return RECORD.parameters()
                .set("workspace_ids", reached.stream().map(Reached::workspaceId).toArray(String[]::new))
                .set(
                        "modes",
                        reached.stream()
                                .map(one -> one.event().mode().wireName())
                                .toArray(String[]::new))
                .set(
                        "meters",
                        reached.stream().map(one -> one.threshold().meter()).toArray(String[]::new))
                .set(
                        "period_starts",
                        reached.stream()
                                .map(one -> one.threshold().period().start())
                                .toArray(Instant[]::new))
                .set(
                        "period_ends",
                        reached.stream()
                                .map(one -> one.threshold().period().end())
                                .toArray(Instant[]::new))
                .set(
                        "thresholds",
                        reached.stream().map(one -> one.threshold().threshold()).toArray(Integer[]::new))
                .set(
                        "event_ids",
                        reached.stream().map(one -> one.event().eventId()).toArray(String[]::new))
                .set("now", now)
                .execute(connection)
                .map(rows -> {
                    Set<String> recorded = new HashSet<>();
                    rows.forEach(row -> recorded.add(row.getString("event_id")));
                    return recorded;
                });
    }

    /** Deletes up to {@code limit} rows of periods that ended before {@code cutoff}; how many. */
    public Uni<Integer> deleteEndedBefore(Instant cutoff, int limit) {
        return DELETE_ENDED_BEFORE
                .parameters()
                .set("cutoff", cutoff)
                .set("limit", limit)
                .execute(pool)
                .map(rows -> rows.rowCount());
    }
}
