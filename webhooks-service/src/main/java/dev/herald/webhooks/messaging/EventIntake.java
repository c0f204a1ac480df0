package dev.herald.webhooks.messaging;

import dev.herald.common.messaging.EventRetry;
import dev.herald.common.time.Timestamps;
import dev.herald.webhooks.config.WebhooksConfig;
import dev.herald.webhooks.delivery.WebhookSender;
import dev.herald.webhooks.repository.EventStatements;
import dev.herald.webhooks.repository.EventStatements.DirectLeases;
import dev.herald.webhooks.repository.EventStatements.IncomingEvent;
import dev.herald.webhooks.repository.EventStatements.Intake;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.function.BiFunction;

/**
 * How a consumer turns a batch of records into webhook events: one store of the batch (an {@code EventStatements}
 * intake) retried until applied, leasing to this sender as many new deliveries as it has room for; those are sent
 * once the store has committed, and for the rest the sender is woken at once.
 */
@ApplicationScoped
public class EventIntake {
    private final EventStatements events;
    private final WebhookSender sender;
    private final WebhooksConfig config;
    private final Clock clock;

    public EventIntake(EventStatements events, WebhookSender sender, WebhooksConfig config, Clock clock) {
        this.events = events;
        this.sender = sender;
        this.config = config;
        this.clock = clock;
    }

    /**
     * Stores a batch of events made one per source event ({@link EventStatements#intake}: deduplicated by the source
     * event id); nothing for an empty one. {@code what} names the events in logs.
     */
    public Uni<Void> store(String what, List<IncomingEvent> batch) {
        if (batch.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return store(batch.size() + " " + what, (now, leases) -> events.intake(batch, now, leases));
    }

    /** {@code store}: the intake of the batch at a time, with the direct leases it may take. */
    public Uni<Void> store(String what, BiFunction<Instant, DirectLeases, Uni<Intake>> store) {
        return EventRetry.untilApplied(what, () -> attempt(store))
                .invoke(slotted -> {
                    Intake intake = slotted.intake();
                    sender.sendLeased(intake.leased(), slotted.slotsTaken());
                    if (intake.created() > intake.leased().size()) {
                        sender.nudge();
                    }
                })
                .replaceWithVoid();
    }

    /** An intake and the sender slots taken for the deliveries it leased. */
    private record SlottedIntake(Intake intake, int slotsTaken) {}

    private Uni<SlottedIntake> attempt(BiFunction<Instant, DirectLeases, Uni<Intake>> store) {
        int slots = sender.takeSlots(config.claimBatchSize());
        Instant now = Timestamps.now(clock);
        return store.apply(now, new DirectLeases(slots, config.maxInFlightPerEndpoint(), now.plus(config.lease())))
                .map(intake -> new SlottedIntake(intake, slots))
                .onFailure()
                .invoke(() -> sender.returnSlots(slots));
    }
}
