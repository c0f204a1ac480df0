package dev.herald.accounts.messaging;

import dev.herald.common.outbox.OutboxConfig;
import dev.herald.common.outbox.OutboxTasks;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.vertx.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.reactive.messaging.Channel;

/** Moves committed events from the outbox table to Kafka, and deletes them once past their retention ({@link OutboxTasks}). */
@ApplicationScoped
public class OutboxRelayJob {
    private final OutboxTasks tasks;

    public OutboxRelayJob(Pool pool, @Channel("outbox") MutinyEmitter<String> emitter, Vertx vertx, MeterRegistry registry,
                          OutboxConfig config) {
        this.tasks = new OutboxTasks(pool, emitter, vertx, registry, config);
    }

    /** Starts once the application is up: before that, messaging may not have wired the emitter yet. */
    void start(@Observes StartupEvent started) {
        tasks.start();
    }

    void stop(@Observes ShutdownEvent stopping) {
        tasks.stop();
    }
}
