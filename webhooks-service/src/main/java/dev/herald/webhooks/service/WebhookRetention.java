package dev.herald.webhooks.service;

import dev.herald.common.persistence.BatchedDelete;
import dev.herald.common.scheduling.RepeatingTask;
import dev.herald.webhooks.config.WebhooksConfig;
import dev.herald.webhooks.repository.DeliveryStatements;
import dev.herald.webhooks.repository.EventStatements;
import dev.herald.webhooks.repository.UsageThresholdStatements;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.time.Instant;

/**
 * Deletes delivery records that have been final for {@code herald.webhooks.retention}, then the events none of them
 * refers to any more, and the usage thresholds of periods that ended as long ago (no usage event of such a period
 * can arrive any more), every {@code herald.webhooks.purge-interval}. Without it these tables would grow by a row
 * per post and endpoint forever. Batches of {@value #BATCH_SIZE}, each its own short statement.
 */
@ApplicationScoped
public class WebhookRetention {
    static final int BATCH_SIZE = 1000;

    private final DeliveryStatements deliveries;
    private final EventStatements events;
    private final UsageThresholdStatements thresholds;
    private final WebhooksConfig config;
    private final Clock clock;
    private final RepeatingTask task;

    public WebhookRetention(
            DeliveryStatements deliveries,
            EventStatements events,
            UsageThresholdStatements thresholds,
            WebhooksConfig config,
            Clock clock,
            Vertx vertx) {
        this.deliveries = deliveries;
        this.events = events;
        this.thresholds = thresholds;
        this.config = config;
        this.clock = clock;
        this.task = new RepeatingTask(vertx, "webhook retention", config.purgeInterval(), this::purge);
    }

    /** What one purge deleted. */
    public record Purged(long deliveries, long events, long thresholds) {}

    public Uni<Purged> purge() {
        Instant cutoff = clock.instant().minus(config.retention());
        return BatchedDelete.untilShort(() -> deliveries.deleteFinalBefore(cutoff, BATCH_SIZE), BATCH_SIZE)
                .flatMap(deletedDeliveries -> BatchedDelete.untilShort(
                                () -> events.deleteUndeliveredBefore(cutoff, BATCH_SIZE), BATCH_SIZE)
                        .flatMap(deletedEvents -> BatchedDelete.untilShort(
                                        () -> thresholds.deleteEndedBefore(cutoff, BATCH_SIZE), BATCH_SIZE)
                                .map(deletedThresholds ->
                                        new Purged(deletedDeliveries, deletedEvents, deletedThresholds))));
    }

    void start(@Observes StartupEvent started) {
        task.start();
    }

    void stop(@Observes ShutdownEvent stopping) {
        task.stop();
    }
}
