package dev.herald.common.metrics;

import dev.herald.common.scheduling.RepeatingTask;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How far a service's outbox relay is behind, as two gauges: {@code herald_outbox_pending} (unpublished events)
 * and {@code herald_outbox_oldest_age_seconds} (how long the oldest of them has waited; 0 when none). A scrape
 * reads the last values; the database is asked every {@code interval} (15 s) by one cheap query on the
 * {@code outbox_unpublished} partial index, never per scrape. The count stops at {@value #COUNT_CAP}, so a
 * backlog that grew during a long Kafka outage does not make the query itself expensive.
 */
public final class OutboxBacklog {
    static final int COUNT_CAP = 100_000;

    private final Pool pool;
    private final RepeatingTask task;
    private final AtomicLong pending = new AtomicLong();
    private final AtomicLong oldestAgeMillis = new AtomicLong();

    /** The 15 s refresh: gauges are scraped every 15 to 60 s, and a backlog worth alerting on lasts minutes. */
    public OutboxBacklog(Pool pool, MeterRegistry registry, Vertx vertx) {
        this(pool, registry, vertx, Duration.ofSeconds(15));
    }

    public OutboxBacklog(Pool pool, MeterRegistry registry, Vertx vertx, Duration interval) {
        this.pool = pool;
        this.task = new RepeatingTask(vertx, "outbox backlog gauge", interval, this::refresh);
        Gauge.builder("herald.outbox.pending", pending, AtomicLong::get)
                .description("Events in the outbox not yet published to Kafka (counted up to " + COUNT_CAP + ")")
                .register(registry);
        Gauge.builder("herald.outbox.oldest.age", oldestAgeMillis, millis -> millis.get() / 1000.0)
                .description("How long the oldest unpublished outbox event has waited")
                .baseUnit("seconds")
                .register(registry);
    }

    public void start() {
        task.start();
        task.nudge();
    }

    public void stop() {
        task.stop();
    }

    /** Reads both values in one statement. */
    public io.smallrye.mutiny.Uni<Void> refresh() {
        return pool.query("""
                        select count(*) as pending,
                            coalesce(extract(epoch from now() - min(created_at)) * 1000, 0)::bigint as oldest_millis
                        from (select created_at from outbox where published_at is null order by id limit %d) as unpublished""".formatted(COUNT_CAP))
                .execute()
                .invoke(rows -> {
                    Row row = rows.iterator().next();
                    pending.set(row.getLong("pending"));
                    oldestAgeMillis.set(Math.max(0, row.getLong("oldest_millis")));
                })
                .replaceWithVoid();
    }
}
