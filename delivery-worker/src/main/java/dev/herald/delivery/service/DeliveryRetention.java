package dev.herald.delivery.service;

import dev.herald.common.persistence.BatchedDelete;
import dev.herald.common.scheduling.RepeatingTask;
import dev.herald.delivery.config.DeliveryConfig;
import dev.herald.delivery.repository.DeliveryStatements;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.time.Instant;

/**
 * Deletes deliveries that have been published or failed for {@code herald.delivery.retention}, with the providers'
 * memory of their calls, every {@code herald.delivery.purge-interval}. posts-service keeps each target's outcome;
 * this is the worker's own state, which would otherwise grow by a row per target forever. Batches of
 * {@value #BATCH_SIZE}, each its own short statement.
 */
@ApplicationScoped
public class DeliveryRetention {
    static final int BATCH_SIZE = 1000;

    private final DeliveryStatements deliveries;
    private final DeliveryConfig config;
    private final Clock clock;
    private final RepeatingTask task;

    public DeliveryRetention(DeliveryStatements deliveries, DeliveryConfig config, Clock clock, Vertx vertx) {
        this.deliveries = deliveries;
        this.config = config;
        this.clock = clock;
        this.task = new RepeatingTask(vertx, "delivery retention", config.purgeInterval(), this::purge);
    }

    /** Deletes every delivery final for longer than the retention; how many. */
    public Uni<Long> purge() {
        Instant cutoff = clock.instant().minus(config.retention());
        return BatchedDelete.untilShort(() -> deliveries.deleteFinalBefore(cutoff, BATCH_SIZE), BATCH_SIZE);
    }

    void start(@Observes StartupEvent started) {
        task.start();
    }

    void stop(@Observes ShutdownEvent stopping) {
        task.stop();
    }
}
