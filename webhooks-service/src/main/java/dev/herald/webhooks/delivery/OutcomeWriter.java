package dev.herald.webhooks.delivery;

import dev.herald.webhooks.model.AttemptOutcome;
import dev.herald.webhooks.repository.DeliveryAttemptStatements;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/**
 * Writes attempt outcomes like a group commit: an outcome is written at once when no write is in flight; outcomes
 * that finish while one is wait and go together in the next statement (one transaction for hundreds of attempts
 * at high load, no added wait at low load). Answers whether the attempt still held its lease.
 */
@ApplicationScoped
public class OutcomeWriter {
    private static final Logger LOG = Logger.getLogger(OutcomeWriter.class);
    private static final int MAX_BATCH = 500;

    private final DeliveryAttemptStatements deliveries;
    private final ConcurrentLinkedQueue<Pending> queue = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean writing = new AtomicBoolean();

    public OutcomeWriter(DeliveryAttemptStatements deliveries) {
        this.deliveries = deliveries;
    }

    private record Pending(AttemptOutcome outcome, CompletableFuture<Boolean> written) {}

    public Uni<Boolean> write(AttemptOutcome outcome) {
        CompletableFuture<Boolean> written = new CompletableFuture<>();
        queue.add(new Pending(outcome, written));
        drain();
        return Uni.createFrom().completionStage(written);
    }

    private void drain() {
        if (!writing.compareAndSet(false, true)) {
            return;
        }
        List<Pending> batch = new ArrayList<>();
        Pending next;
        while (batch.size() < MAX_BATCH && (next = queue.poll()) != null) {
            batch.add(next);
        }
        if (batch.isEmpty()) {
            writing.set(false);
            if (!queue.isEmpty()) {
                drain();
            }
            return;
        }
        deliveries
                .recordOutcomes(batch.stream().map(Pending::outcome).toList())
                .onFailure()
                .retry()
                .withBackOff(Duration.ofMillis(100), Duration.ofSeconds(1))
                .atMost(3)
                .subscribe()
                .with(
                        written -> {
                            batch.forEach(pending -> pending.written()
                                    .complete(written.contains(
                                            pending.outcome().delivery().id())));
                            writing.set(false);
                            drain();
                        },
                        failure -> {
                            // The attempts keep their leases, which lapse: the deliveries are claimed and sent again.
                            LOG.warnf(
                                    "writing %d webhook attempt outcomes failed: %s (they are attempted again when their leases lapse)",
                                    batch.size(), failure.toString());
                            batch.forEach(pending -> pending.written().completeExceptionally(failure));
                            writing.set(false);
                            drain();
                        });
    }
}
