package dev.herald.common.messaging;

import dev.herald.common.scheduling.RepeatingTask;
import io.quarkus.arc.properties.IfBuildProperty;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Forgets the consumed event ids past {@code herald.processed-events.retention} ({@link ProcessedEventRetention}). A
 * bean only in services that consume events: {@code herald.processed-events.enabled=true} in their application.properties.
 */
@ApplicationScoped
@IfBuildProperty(name = "herald.processed-events.enabled", stringValue = "true")
public class ProcessedEventRetentionJob {
    private final RepeatingTask task;

    public ProcessedEventRetentionJob(Pool pool, Vertx vertx, ProcessedEventsConfig config) {
        ProcessedEventRetention retention = new ProcessedEventRetention(pool, config.retention());
        this.task = new RepeatingTask(vertx, "processed events retention", config.purgeInterval(), retention::purge);
    }

    void start(@Observes StartupEvent started) {
        task.start();
    }

    void stop(@Observes ShutdownEvent stopping) {
        task.stop();
    }
}
