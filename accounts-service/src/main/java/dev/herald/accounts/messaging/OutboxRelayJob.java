package dev.herald.accounts.messaging;

import dev.herald.common.metrics.OutboxBacklog;
import dev.herald.common.outbox.OutboxRelay;
import dev.herald.common.scheduling.RepeatingTask;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.vertx.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.reactive.messaging.Channel;

/**
 * Moves committed events from the outbox table to Kafka, until the outbox is empty, every
 * {@code herald.outbox.poll-interval} (200 ms; a Vert.x timer, since Quarkus's scheduler cannot tick faster
 * than once a second).
 */
@ApplicationScoped
public class OutboxRelayJob {
    private final RepeatingTask task;
    private final OutboxBacklog backlog;

    public OutboxRelayJob(Pool pool, @Channel("outbox") MutinyEmitter<String> emitter, Vertx vertx, MeterRegistry registry,
                          @ConfigProperty(name = "herald.outbox.poll-interval", defaultValue = "0.2s") Duration interval) {
        OutboxRelay relay = OutboxRelay.toKafka(pool, emitter);
        this.task = new RepeatingTask(vertx, "outbox relay", interval, relay::drain);
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
}
