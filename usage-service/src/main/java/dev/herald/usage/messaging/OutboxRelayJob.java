package dev.herald.usage.messaging;

import dev.herald.common.outbox.OutboxMessage;
import dev.herald.common.outbox.OutboxRelay;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/** Moves committed events from the outbox table to Kafka, a batch at a time, until the outbox is empty. */
@ApplicationScoped
public class OutboxRelayJob {
    private static final Logger LOG = Logger.getLogger(OutboxRelayJob.class);
    private static final int BATCH_SIZE = 200;

    private final OutboxRelay relay;

    public OutboxRelayJob(Pool pool, @Channel("outbox") MutinyEmitter<String> emitter) {
        this.relay = new OutboxRelay(pool, message -> send(emitter, message), BATCH_SIZE);
    }

    /** The first run waits until messaging has wired the emitter (sooner, on a busy machine, it is not there yet). */
    @Scheduled(every = "${herald.outbox.poll-interval:0.2s}", delayed = "${herald.outbox.initial-delay:5s}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> publishPending() {
        return drain().onFailure().invoke(failure -> LOG.warnf("outbox relay: %s (will retry)", failure.toString()))
                .onFailure().recoverWithNull().replaceWithVoid();
    }

    private Uni<Integer> drain() {
        return relay.publishBatch().flatMap(sent -> sent == BATCH_SIZE ? drain() : Uni.createFrom().item(sent));
    }

    private static Uni<Void> send(MutinyEmitter<String> emitter, OutboxMessage message) {
        return emitter.sendMessage(Message.of(message.payload()).addMetadata(OutgoingKafkaRecordMetadata.<String>builder()
                .withTopic(message.topic())
                .withKey(message.messageKey())
                .build()));
    }
}
