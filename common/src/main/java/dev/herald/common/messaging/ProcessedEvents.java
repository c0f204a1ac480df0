package dev.herald.common.messaging;

import dev.herald.common.persistence.NamedStatement;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;

/**
 * The ids of the Kafka events a service applied, recorded in the transaction of their effect so that a redelivered
 * event changes nothing. Every consuming service has the same {@code processed_events} table ({@code event_id} its
 * key, {@code processed_at} defaulting to now, indexed for {@link ProcessedEventRetention}); this class is the one
 * place that names it. Transactional code marks an event with {@link #markProcessed}; a statement on the Vert.x pool
 * that applies an event by itself (one statement, no BEGIN and COMMIT) takes its fragments from here.
 */
public final class ProcessedEvents {
    private static final String INSERT = "insert into processed_events (event_id) ";

    private static final String MARK = INSERT + "values (?1) on conflict do nothing";

    /** One batch of {@link ProcessedEventRetention}, oldest first, by the {@code processed_at} index. */
    static final NamedStatement PURGE_BATCH = NamedStatement.of("""
            delete from processed_events where event_id in (
                select event_id from processed_events
                where processed_at < now() - make_interval(secs => :retention_seconds)
                order by processed_at limit :batch_size for update skip locked)""");

    private ProcessedEvents() {}

    /**
     * Records the event within the current Panache transaction; false when it was recorded before (a redelivery, to
     * be skipped). A concurrent delivery of the same event waits here for the first one's transaction, then sees it.
     */
    public static Uni<Boolean> markProcessed(String eventId) {
        return Panache.getSession()
                .flatMap(session ->
                        session.createNativeQuery(MARK).setParameter(1, eventId).executeUpdate())
                .map(inserted -> inserted > 0);
    }

    /**
     * A condition that holds while the event {@code eventId} (an SQL expression, such as {@code :event_id}) is not
     * recorded: for a statement that checks before it writes and then {@link #record records} it.
     */
    public static String notProcessed(String eventId) {
        return "not exists (select 1 from processed_events where event_id = " + eventId + ")";
    }

    /**
     * Records the ids {@code ids} gives (a {@code select} or {@code values} of one column); a unique violation when
     * one is recorded already (a concurrent delivery of it, which the statement's {@link #notProcessed} check did not
     * see yet).
     */
    public static String record(String ids) {
        return INSERT + ids;
    }

    /** Records the ids {@code ids} gives that are not recorded yet, answering those (column {@code event_id}). */
    public static String recordNew(String ids) {
        return INSERT + ids + " on conflict do nothing returning event_id";
    }
}
