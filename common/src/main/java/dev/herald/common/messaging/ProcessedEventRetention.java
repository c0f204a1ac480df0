package dev.herald.common.messaging;

import dev.herald.common.persistence.BatchedDelete;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import java.time.Duration;

/**
 * Forgets the event ids a consumer applied once they are older than the retention, so {@code processed_events} holds
 * the redelivery window instead of every event ever consumed. Batches of {@code batchSize} in processed order (its
 * {@code processed_events_processed_at} index), each its own statement; {@code SKIP LOCKED} lets replicas purge at once.
 */
public final class ProcessedEventRetention {
    private static final int DEFAULT_BATCH_SIZE = 1000;

    private final Pool pool;
    private final Duration retention;
    private final int batchSize;

    public ProcessedEventRetention(Pool pool, Duration retention) {
        this(pool, retention, DEFAULT_BATCH_SIZE);
    }

    public ProcessedEventRetention(Pool pool, Duration retention, int batchSize) {
        this.pool = pool;
        this.retention = retention;
        this.batchSize = batchSize;
    }

    /** Forgets every event processed before the retention; how many. */
    public Uni<Long> purge() {
        return BatchedDelete.untilShort(this::deleteBatch, batchSize);
    }

    private Uni<Integer> deleteBatch() {
        return ProcessedEvents.PURGE_BATCH
                .parameters()
                .set("retention_seconds", retention.toMillis() / 1000.0)
                .set("batch_size", batchSize)
                .execute(pool)
                .map(rows -> rows.rowCount());
    }
}
