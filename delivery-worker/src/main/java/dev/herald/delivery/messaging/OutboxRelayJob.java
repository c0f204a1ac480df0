package dev.herald.delivery.messaging;

import dev.herald.common.metrics.OutboxBacklog;
import dev.herald.common.outbox.OutboxRelay;
import dev.herald.delivery.config.OutboxConfig;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.microprofile.reactive.messaging.Channel;

/**
 * Moves committed events from the outbox table to Kafka: every {@code herald.outbox.poll-interval} (200 ms),
 * and at once when {@link #trigger()} says a final outcome just committed, so accepted-to-published stays
 * fast. One drain at a time in this process; a trigger during a drain runs another right after it, so an
 * event committed mid-drain never waits for the next tick.
 */
@ApplicationScoped
public class OutboxRelayJob {
    private final OutboxRelay relay;
    private final Vertx vertx;
    private final OutboxConfig config;
    private final OutboxBacklog backlog;
    private final AtomicBoolean draining = new AtomicBoolean();
    private final AtomicBoolean requested = new AtomicBoolean();
    private volatile boolean running;
    private volatile long timerId = -1;

    public OutboxRelayJob(Pool pool, @Channel("outbox") MutinyEmitter<String> emitter, Vertx vertx, MeterRegistry registry,
                          OutboxConfig config) {
        this.relay = OutboxRelay.toKafka(pool, emitter);
        this.backlog = new OutboxBacklog(pool, registry, vertx.getDelegate());
        this.vertx = vertx;
        this.config = config;
    }

    /** Starts once the application is up: before that, messaging may not have wired the emitter yet. */
    void start(@Observes StartupEvent event) {
        running = true;
        timerId = vertx.setPeriodic(config.pollInterval().toMillis(), id -> trigger());
        backlog.start();
    }

    void stop(@Observes ShutdownEvent event) {
        running = false;
        if (timerId >= 0) {
            vertx.cancelTimer(timerId);
        }
        backlog.stop();
    }

    /** Publishes what the outbox holds now, or right after the drain in progress. */
    public void trigger() {
        if (!running) {
            return;
        }
        requested.set(true);
        if (draining.compareAndSet(false, true)) {
            requested.set(false);
            // drain() logs and swallows its failures: the rows stay and the next run sends them.
            relay.drain().subscribe().with(done -> drained(), failure -> drained());
        }
    }

    private void drained() {
        draining.set(false);
        if (requested.get()) {
            trigger();
        }
    }
}
