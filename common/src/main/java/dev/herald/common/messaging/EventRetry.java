package dev.herald.common.messaging;

import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * How every Kafka consumer applies an event: until it is applied. A failure to apply one (the database or a peer
 * is away) is retried with backoff for as long as it takes, holding the partition back, because the alternatives
 * both lose an effect: SmallRye's default failure strategy stops the channel for good (nothing more is consumed
 * until the service restarts) and skipping drops the event. Records nobody can read are the consumers' own
 * business (logged and skipped), never given to this.
 */
public final class EventRetry {
    private static final Logger LOG = Logger.getLogger(EventRetry.class);
    static final Duration FIRST_RETRY = Duration.ofMillis(200);
    static final Duration MAX_RETRY = Duration.ofSeconds(10);

    private EventRetry() {}

    /**
     * Applies {@code apply} (called again for every attempt, so each runs in a new transaction) until it succeeds.
     * Each attempt runs on the Vert.x context the record was delivered on: after a backoff, Mutiny resubscribes on
     * its timer thread, where Hibernate Reactive refuses to work (HR000068).
     */
    public static <T> Uni<T> untilApplied(String event, Supplier<Uni<? extends T>> apply) {
        return untilApplied(event, apply, FIRST_RETRY, MAX_RETRY);
    }

    static <T> Uni<T> untilApplied(
            String event, Supplier<Uni<? extends T>> apply, Duration firstRetry, Duration maxRetry) {
        Context context = Vertx.currentContext();
        Uni<T> attempt = Uni.createFrom().deferred(apply);
        if (context != null) {
            attempt = attempt.runSubscriptionOn(task -> context.runOnContext(ignored -> task.run()));
        }
        return attempt.onFailure()
                .invoke(failure -> LOG.warnf("%s not applied yet: %s (retrying)", event, failure.toString()))
                .onFailure()
                .retry()
                .withBackOff(firstRetry, maxRetry)
                .indefinitely();
    }
}
