package dev.herald.delivery.service;

import dev.herald.common.time.Timestamps;
import dev.herald.delivery.config.DeliveryConfig;
import dev.herald.delivery.model.LeasedDelivery;
import dev.herald.delivery.repository.DeliveryStatements;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Takes posts handed to delivery, a poll's batch at a time: one leased delivery per target, attempted right after the commit; a handover that came
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
     * Records a batch of events and their deliveries in one statement, then starts attempting as many as the worker
     * has free places for, without waiting for the attempts (a slow provider must not hold up the partition); the
     * claim loop takes the others as places free up. The started rows are leased to this worker from the start: if it
     * dies before an attempt ends, the claim loop of any worker takes them over once the lease lapses. Answers how many
     * deliveries were started at once. Each event's
     * trace (its record's header, or null) is kept with its deliveries: their attempts continue that trace.
     */
    public Uni<Integer> accept(List<DeliveryStatements.HandedOver> batch) {
        return Uni.createFrom().deferred(() -> {
            Instant now = Timestamps.now(clock);
            return deliveries
                    .insertLeased(distinctEvents(batch), attempts.freePlaces(), now, now.plus(config.lease()))
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

    /** The batch without its redeliveries of an event (the first one counts): the statement wants distinct ids. */
    private static List<DeliveryStatements.HandedOver> distinctEvents(List<DeliveryStatements.HandedOver> batch) {
        Map<String, DeliveryStatements.HandedOver> distinct = new LinkedHashMap<>();
        for (DeliveryStatements.HandedOver handedOver : batch) {
            distinct.putIfAbsent(handedOver.event().eventId(), handedOver);
        }
        return List.copyOf(distinct.values());
    }
}
