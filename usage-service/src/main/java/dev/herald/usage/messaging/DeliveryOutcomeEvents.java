package dev.herald.usage.messaging;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.events.PostFinalizedEvent;
import dev.herald.common.events.TargetCompletedEvent;
import dev.herald.common.messaging.EventRetry;
import dev.herald.usage.service.ReservationSettlement;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * {@code target.completed} and {@code post.finalized}: delivery outcomes that settle publication reservations
 * ({@link ReservationSettlement}). The offset of a record is committed only after its transaction has committed.
 * A record nobody can read is logged and skipped; a failure to apply one (the database is away) is retried with
 * backoff for as long as it takes, holding the partition back rather than losing an effect.
 */
@ApplicationScoped
public class DeliveryOutcomeEvents {
    private static final Logger LOG = Logger.getLogger(DeliveryOutcomeEvents.class);

    private final ReservationSettlement settlement;
    private final ObjectMapper events;

    public DeliveryOutcomeEvents(ReservationSettlement settlement, ObjectMapper mapper) {
        this.settlement = settlement;
        // A tolerant reader: request bodies refuse unknown fields, but an event may carry fields a newer producer
        // added (and Post and PostTarget serialize their isFinal() as "final"), which must not make it unreadable.
        this.events = mapper.copy().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    }

    /** One poll's records at a time ({@code batch=true}): their settlement shares a read and a statement. */
    @Incoming("target-completed")
    public Uni<Void> targetCompleted(ConsumerRecords<String, String> records) {
        List<TargetCompletedEvent> batch = new ArrayList<>(records.count());
        for (ConsumerRecord<String, String> record : records) {
            TargetCompletedEvent event = read(record.value(), TargetCompletedEvent.class);
            if (event != null && !withoutId(event.eventId(), TargetCompletedEvent.TYPE)) {
                batch.add(event);
            }
        }
        if (batch.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return applied(
                batch.size() + " target.completed events from " + batch.get(0).eventId(),
                () -> settlement.targetsCompleted(batch));
    }

    @Incoming("post-finalized")
    public Uni<Void> postFinalized(String payload) {
        PostFinalizedEvent event = read(payload, PostFinalizedEvent.class);
        if (event == null || withoutId(event.eventId(), "post.finalized")) {
            return Uni.createFrom().voidItem();
        }
        if (!PostFinalizedEvent.CANCELED.equals(event.type())) {
            // Published and failed posts were settled target by target (target.completed): nothing to apply, so
            // nothing to record either. Skipping the transaction matters: every final post passes through here.
            return Uni.createFrom().voidItem();
        }
        return applied("event " + event.eventId(), () -> settlement.postFinalized(event));
    }

    private static Uni<Void> applied(String events, Supplier<Uni<? extends Void>> apply) {
        return EventRetry.untilApplied(events, apply);
    }

    /** The event, or null when the record cannot be one (logged): a record nobody can read would stop the channel. */
    private <T> T read(String payload, Class<T> type) {
        try {
            return events.readValue(payload, type);
        } catch (JsonProcessingException e) {
            LOG.errorf("skipping an unreadable %s record: %s", type.getSimpleName(), e.getOriginalMessage());
            return null;
        }
    }

    /** An event without an id cannot be deduplicated, so it is not applied at all (logged). */
    private static boolean withoutId(String eventId, String kind) {
        if (eventId == null || eventId.isBlank()) {
            LOG.errorf("skipping a %s record without event_id", kind);
            return true;
        }
        return false;
    }
}
