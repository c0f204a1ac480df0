package dev.herald.common.outbox;

import dev.herald.common.persistence.NamedStatement;
import dev.herald.common.tracing.TraceParents;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * Publishes a service's outbox to Kafka. One relay at a time per database (a transaction-scoped advisory
 * lock), so messages leave in commit order and per-key order holds; the rows it sends are locked
 * ({@code FOR UPDATE SKIP LOCKED}) and marked published in the same transaction, which commits after the broker
 * has acknowledged every one of them. A crash between the acknowledgement and the commit sends a batch
 * twice, never zero times: consumers deduplicate by event id.
 */
public final class OutboxRelay {
    /** Arbitrary, fixed: the advisory lock id of the outbox relay in every service database. */
    public static final long RELAY_LOCK = 0x68657261_6c64L;

    private static final int DEFAULT_BATCH_SIZE = 200;
    private static final Logger LOG = Logger.getLogger(OutboxRelay.class);

    private static final NamedStatement CLAIM_AND_MARK = NamedStatement.of("""
            update outbox set published_at = now()
            where id in (select id from outbox
                         where (select pg_try_advisory_xact_lock(:lock)) and published_at is null
                         order by id limit :batch_size for update skip locked)
            returning id, event_id, topic, message_key, payload::text as payload, trace_parent""");

    private final Pool pool;
    private final Function<OutboxMessage, Uni<Void>> sender;
    private final int batchSize;

    public OutboxRelay(Pool pool, Function<OutboxMessage, Uni<Void>> sender, int batchSize) {
        this.pool = pool;
        this.sender = sender;
        this.batchSize = batchSize;
    }

    /**
     * A relay that sends each message to its topic, keyed by its aggregate, through a Kafka emitter, with the
     * writer's {@code traceparent} header when it had one: the consumer continues that trace.
     */
    public static OutboxRelay toKafka(Pool pool, MutinyEmitter<String> emitter) {
        return new OutboxRelay(
                pool,
                message -> emitter.sendMessage(Message.of(message.payload())
                        .addMetadata(OutgoingKafkaRecordMetadata.<String>builder()
                                .withTopic(message.topic())
                                .withKey(message.messageKey())
                                .withHeaders(headersOf(message))
                                .build())),
                DEFAULT_BATCH_SIZE);
    }

    private static RecordHeaders headersOf(OutboxMessage message) {
        RecordHeaders headers = new RecordHeaders();
        if (message.traceParent() != null) {
            headers.add(TraceParents.HEADER, message.traceParent().getBytes(StandardCharsets.US_ASCII));
        }
        return headers;
    }

    /**
     * Publishes batches until the outbox is empty. A failure is logged and swallowed: the rows stay
     * unpublished and the next run sends them.
     */
    public Uni<Void> drain() {
        return drainBatches()
                .onFailure()
                .invoke(failure -> LOG.warnf("outbox relay: %s (will retry)", failure.toString()))
                .onFailure()
                .recoverWithNull()
                .replaceWithVoid();
    }

    private Uni<Integer> drainBatches() {
        return publishBatch()
                .flatMap(sent ->
                        sent == batchSize ? drainBatches() : Uni.createFrom().item(sent));
    }

    /** Sends one batch; the number of messages published (0 when idle or another replica holds the lock). */
    public Uni<Integer> publishBatch() {
        return pool.withTransaction(this::claimAndSend);
    }

    /**
     * Claims the batch and marks it published in the statement that takes the relay's lock; the transaction commits
     * only once the broker has acknowledged every message, and a failed send rolls the marks back. The lock is tried
     * once, before the scan (an init plan), and without it no row is read. The statement's snapshot predates the lock,
     * but a row another relay marked published in between is re-checked against the new version by
     * {@code FOR UPDATE} and skipped. One statement rather than a claim and a later mark: the mark's
     * {@code id = any(:ids)} was planned anew at every execution (its array's length changes the estimate).
     */
    private Uni<Integer> claimAndSend(SqlConnection connection) {
        return CLAIM_AND_MARK
                .parameters()
                .set("lock", RELAY_LOCK)
                .set("batch_size", batchSize)
                .execute(connection)
                .flatMap(rows -> {
                    List<OutboxMessage> messages = new ArrayList<>();
                    for (Row row : rows) {
                        messages.add(new OutboxMessage(
                                row.getLong("id"),
                                row.getString("event_id"),
                                row.getString("topic"),
                                row.getString("message_key"),
                                row.getString("payload"),
                                row.getString("trace_parent")));
                    }
                    if (messages.isEmpty()) {
                        return Uni.createFrom().item(0);
                    }
                    // RETURNING has no order: messages leave in commit (id) order, so each key's events stay in order.
                    messages.sort(Comparator.comparingLong(OutboxMessage::id));
                    // The producer pipelines the sends; idempotence keeps their order within a partition.
                    List<Uni<Void>> sends = messages.stream().map(sender).toList();
                    return Uni.join().all(sends).andFailFast().replaceWith(messages.size());
                });
    }
}
