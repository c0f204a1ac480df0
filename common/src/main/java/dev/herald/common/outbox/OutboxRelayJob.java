package dev.herald.common.outbox;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.arc.properties.IfBuildProperty;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.vertx.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.reactive.messaging.Channel;

/**
 * Moves committed events from a service's outbox table to Kafka (its {@code outbox} channel), and deletes them once
 * past their retention ({@link OutboxTasks}). A bean only in services that write events: {@code herald.outbox.enabled=true}
 * in their application.properties.
 */
@ApplicationScoped
@IfBuildProperty(name = "herald.outbox.enabled", stringValue = "true")
public class OutboxRelayJob {
    private final OutboxTasks tasks;

    public OutboxRelayJob(
            Pool pool,
            @Channel("outbox") MutinyEmitter<String> emitter,
            Vertx vertx,
            MeterRegistry registry,
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

    /** Relays what the outbox holds now (events were just committed), or right after the drain in progress. */
    public void nudge() {
        tasks.nudge();
    }
}
