package dev.herald.posts.messaging;

import dev.herald.common.metrics.OutboxBacklog;
import dev.herald.common.outbox.OutboxRelay;
import dev.herald.common.scheduling.RepeatingTask;
import dev.herald.posts.config.PostsConfig;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.vertx.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.reactive.messaging.Channel;

/**
 * Moves committed events from the outbox table to Kafka, until the outbox is empty: on a short tick, and
 * right away when a transaction that wrote events has committed ({@link #nudge()}), since delivery latency
 * starts here.
 */
@ApplicationScoped
public class OutboxRelayJob {
    private final RepeatingTask task;
    private final OutboxBacklog backlog;

    public OutboxRelayJob(Pool pool, @Channel("outbox") MutinyEmitter<String> emitter, Vertx vertx, MeterRegistry registry,
                          PostsConfig config) {
        OutboxRelay relay = OutboxRelay.toKafka(pool, emitter);
        this.task = new RepeatingTask(vertx, "outbox relay", config.outboxInterval(), relay::drain);
        this.backlog = new OutboxBacklog(pool, registry, vertx);
    }

    void start(@Observes StartupEvent started) {
        task.start();
        backlog.start();
    }

    void stop(@Observes ShutdownEvent stopping) {
        task.stop();
        backlog.stop();
    }

    public void nudge() {
        task.nudge();
    }
}
