package dev.herald.common.outbox;

import dev.herald.common.persistence.BatchedDelete;
import dev.herald.common.persistence.NamedStatement;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import java.time.Duration;

/**
 * Deletes published outbox rows once they are older than the retention, so the table holds the unpublished backlog
 * and a bounded replay window instead of every event ever written. Batches of {@code batchSize}, each its own
 * short transaction, until none is left; rows the relay has not published are never touched, however old.
 */
public final class OutboxRetention {
    private static final int DEFAULT_BATCH_SIZE = 1000;
    private static final NamedStatement DELETE_BATCH = NamedStatement.of("""
            delete from outbox where id in (
                select id from outbox
                where id < coalesce((select id from outbox where created_at >= now() - make_interval(secs => :retention_seconds)
                                     order by id limit 1), 9223372036854775807)
                  and published_at < now() - make_interval(secs => :retention_seconds)
                order by id limit :batch_size for update skip locked)""");

    private final Pool pool;
    private final Duration retention;
    private final int batchSize;

    public OutboxRetention(Pool pool, Duration retention) {
        this(pool, retention, DEFAULT_BATCH_SIZE);
    }

    public OutboxRetention(Pool pool, Duration retention, int batchSize) {
        this.pool = pool;
        this.retention = retention;
        this.batchSize = batchSize;
    }

    /** Deletes every published row older than the retention; how many it deleted. */
    public Uni<Long> purge() {
        return BatchedDelete.untilShort(this::deleteBatch, batchSize);
    }

    /**
     * One batch. Ids grow with time, so the scan is bounded by the first row created after the cutoff: without that
     * bound the primary-key walk would read the whole retained window on every run to learn that nothing in it is
     * old enough. {@code published_at} is what counts (an event sent late, after an outage, keeps its full window),
     * and since a row is published after it is created, every row old enough lies below the bound (a row whose id
     * was assigned out of order waits for a later run). {@code SKIP LOCKED}: replicas purging at once split the work.
     */
    private Uni<Integer> deleteBatch() {
        return DELETE_BATCH
                .parameters()
                .set("retention_seconds", retention.toMillis() / 1000.0)
                .set("batch_size", batchSize)
                .execute(pool)
                .map(rows -> rows.rowCount());
    }
}
