package dev.herald.delivery.service;

import dev.herald.common.events.PostAcceptedEvent;
import dev.herald.common.time.Timestamps;
import dev.herald.delivery.config.DeliveryConfig;
import dev.herald.delivery.repository.DeliveryStatements;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.util.List;

/** Takes a post handed to delivery: one leased delivery per target, attempted right after the commit. */
@ApplicationScoped
public class DeliveryIntake {
    private final DeliveryStatements deliveries;
    private final DeliveryAttempts attempts;
    private final DeliveryConfig config;
    private final Clock clock;

    public DeliveryIntake(
            DeliveryStatements deliveries, DeliveryAttempts attempts, DeliveryConfig config, Clock clock) {
        this.deliveries = deliveries;
        this.attempts = attempts;
        this.config = config;
        this.clock = clock;
    }

    /**
     * Records the event and its deliveries in one statement, then starts attempting them without waiting for
     * the attempts (a slow provider must not hold up the partition). The rows are leased to this worker from the
     * start: if it dies before an attempt ends, the claim loop of any worker takes them over once the lease
     * lapses. Answers how many deliveries were new (none for a redelivered event or an already known target).
     * {@code traceParent} (the record's header, or null) is kept with each delivery: its attempts continue that trace.
     */
    public Uni<Integer> accept(PostAcceptedEvent event, String traceParent) {
        return Uni.createFrom()
                .deferred(() -> {
                    Instant now = Timestamps.now(clock);
                    return deliveries.insertLeased(event, traceParent, now, now.plus(config.lease()));
                })
                .invoke(attempts::startAll)
                .map(List::size);
    }
}
