package dev.herald.accounts.messaging;

import dev.herald.common.outbox.OutboxRelay;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Channel;

/** Moves committed events from the outbox table to Kafka, until the outbox is empty, every 200 ms. */
@ApplicationScoped
public class OutboxRelayJob {
    private final OutboxRelay relay;

    public OutboxRelayJob(Pool pool, @Channel("outbox") MutinyEmitter<String> emitter) {
        this.relay = OutboxRelay.toKafka(pool, emitter);
    }

    /** The first run waits until messaging has wired the emitter (on a busy machine that takes a while). */
    @Scheduled(every = "${herald.outbox.poll-interval:0.2s}", delayed = "${herald.outbox.initial-delay:1s}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> publishPending() {
        return relay.drain();
    }
}
