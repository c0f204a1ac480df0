package dev.herald.delivery.service;

import dev.herald.common.events.PostAcceptedEvent;
import dev.herald.common.time.Timestamps;
import dev.herald.delivery.config.DeliveryConfig;
import dev.herald.delivery.model.LeasedDelivery;
import dev.herald.delivery.repository.DeliveryStatements;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Takes a post handed to delivery: one leased delivery per target, attempted right after the commit; a handover that came
 * more than the watchdog's {@code due-grace} after the post fell due is settled by the {@link StuckDeliveryWatchdog}
 * instead (never attempted late).
 */
@ApplicationScoped
public class DeliveryIntake {
    private final DeliveryStatements deliveries;
    private final DeliveryAttempts attempts;
    private final StuckDeliveryWatchdog watchdog;
    private final DeliveryConfig config;
    private final Clock clock;

    public DeliveryIntake(
            DeliveryStatements deliveries,
            DeliveryAttempts attempts,
            StuckDeliveryWatchdog watchdog,
            DeliveryConfig config,
            Clock clock) {
        this.deliveries = deliveries;
        this.attempts = attempts;
        this.watchdog = watchdog;
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
        return Uni.createFrom().deferred(() -> {
            Instant now = Timestamps.now(clock);
            return deliveries
                    .insertLeased(event, traceParent, now, now.plus(config.lease()))
                    .call(inserted -> {
                        Map<Boolean, List<LeasedDelivery>> late = inserted.stream()
                                .collect(Collectors.partitioningBy(
                                        delivery -> watchdog.rule().lateAtIntake(delivery, now)));
                        attempts.startAll(late.get(false));
                        // No call was ever made for these: settling them is one write each, before the offset moves.
                        return watchdog.settleAll(late.get(true));
                    })
                    .map(List::size);
        });
    }
}
