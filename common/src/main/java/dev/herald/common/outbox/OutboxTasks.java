package dev.herald.common.outbox;

import dev.herald.common.metrics.OutboxBacklog;
import dev.herald.common.scheduling.RepeatingTask;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.vertx.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;

/**
 * The timers that look after one service's outbox: the relay to Kafka (every {@code herald.outbox.poll-interval},
 * and at once when {@link #nudge()}d after a commit that wrote events), the backlog gauges, and the purge of
 * published events past {@code herald.outbox.retention}.
 */
public final class OutboxTasks {
    private final RepeatingTask relay;
    private final OutboxBacklog backlog;
    private final RepeatingTask purge;

    public OutboxTasks(
            Pool pool, MutinyEmitter<String> emitter, Vertx vertx, MeterRegistry registry, OutboxConfig config) {
        OutboxRelay outboxRelay = OutboxRelay.toKafka(pool, emitter);
        OutboxRetention retention = new OutboxRetention(pool, config.retention());
        this.relay = new RepeatingTask(vertx, "outbox relay", config.pollInterval(), outboxRelay::drain);
        this.backlog = new OutboxBacklog(pool, registry, vertx);
        this.purge = new RepeatingTask(vertx, "outbox retention", config.purgeInterval(), retention::purge);
    }

    /** Call once the application is up: before that, messaging may not have wired the emitter yet. */
    public void start() {
        relay.start();
        backlog.start();
        purge.start();
    }

    public void stop() {
        relay.stop();
        backlog.stop();
        purge.stop();
    }

    /** Relays what the outbox holds now, or right after the drain in progress. */
    public void nudge() {
        relay.nudge();
    }
}
