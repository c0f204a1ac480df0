package dev.herald.delivery.messaging;

import dev.herald.common.metrics.OutboxBacklog;
import dev.herald.common.outbox.OutboxRelay;
import dev.herald.common.scheduling.RepeatingTask;
import dev.herald.delivery.config.OutboxConfig;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.vertx.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.reactive.messaging.Channel;

/**
 * Moves committed events from the outbox table to Kafka: every {@code herald.outbox.poll-interval} (200 ms), and
 * at once when {@link #trigger()} says a final outcome just committed, so accepted-to-published stays fast. One
 * drain at a time in this process; a trigger during a drain runs another right after it, so an event committed
 * mid-drain never waits for the next tick.
 */
@ApplicationScoped
public class OutboxRelayJob {
    private final RepeatingTask task;
    private final OutboxBacklog backlog;

    public OutboxRelayJob(Pool pool, @Channel("outbox") MutinyEmitter<String> emitter, Vertx vertx, MeterRegistry registry,
                          OutboxConfig config) {
        OutboxRelay relay = OutboxRelay.toKafka(pool, emitter);
        this.task = new RepeatingTask(vertx, "outbox relay", config.pollInterval(), relay::drain);
        this.backlog = new OutboxBacklog(pool, registry, vertx);
    }

    /** Starts once the application is up: before that, messaging may not have wired the emitter yet. */
    void start(@Observes StartupEvent event) {
        task.start();
        backlog.start();
    }

    void stop(@Observes ShutdownEvent event) {
        task.stop();
        backlog.stop();
    }

    /** Publishes what the outbox holds now, or right after the drain in progress. */
    public void trigger() {
        task.nudge();
    }
}
