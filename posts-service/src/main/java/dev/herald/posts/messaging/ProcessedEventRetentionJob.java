package dev.herald.posts.messaging;

import dev.herald.common.messaging.ProcessedEventRetention;
import dev.herald.common.messaging.ProcessedEventsConfig;
import dev.herald.common.scheduling.RepeatingTask;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/** Forgets the consumed event ids past {@code herald.processed-events.retention} ({@link ProcessedEventRetention}). */
@ApplicationScoped
public class ProcessedEventRetentionJob {
    private final RepeatingTask task;

    public ProcessedEventRetentionJob(Pool pool, Vertx vertx, ProcessedEventsConfig config) {
        this.task = ProcessedEventRetention.every(pool, vertx, config);
    }

    void start(@Observes StartupEvent started) {
        task.start();
    }

    void stop(@Observes ShutdownEvent stopping) {
        task.stop();
    }
}
