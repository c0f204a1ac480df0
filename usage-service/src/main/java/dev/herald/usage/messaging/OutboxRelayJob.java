package dev.herald.usage.messaging;

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

    /**
     * Runs only once the application is up: before that, messaging may not have wired the emitter yet (on a
     * busy machine startup takes a while), and a run would fail with an error in the log.
     */
    @Scheduled(every = "${herald.outbox.poll-interval:0.2s}", skipExecutionIf = Scheduled.ApplicationNotRunning.class,
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> publishPending() {
        return relay.drain();
    }
}
