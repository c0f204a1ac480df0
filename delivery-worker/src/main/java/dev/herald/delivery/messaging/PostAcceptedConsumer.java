package dev.herald.delivery.messaging;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.herald.common.events.PostAcceptedEvent;
import dev.herald.common.messaging.EventRetry;
import dev.herald.common.tracing.TraceParents;
import dev.herald.delivery.repository.DeliveryStatements;
import dev.herald.delivery.service.DeliveryIntake;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * {@code post.accepted}: posts handed to delivery. A poll's deliveries are recorded with their events' ids in one
 * statement (a redelivered event changes nothing), then attempted at once; the offsets are committed after that
 * statement, not after the deliveries, which their leases keep safe. The record's {@code traceparent} header (the
 * request that accepted the post) is stored with the deliveries, so their attempts continue that trace.
 */
@ApplicationScoped
public class PostAcceptedConsumer {
    private static final Logger LOG = Logger.getLogger(PostAcceptedConsumer.class);

    private final DeliveryIntake intake;
    private final ObjectReader events;

    public PostAcceptedConsumer(DeliveryIntake intake, ObjectMapper mapper) {
        this.intake = intake;
        // Tolerant of fields added to the event later: a newer posts-service must not stop an older worker.
        this.events =
                mapper.readerFor(PostAcceptedEvent.class).without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    }

    /** One poll's records at a time ({@code batch=true}): their deliveries are recorded by one statement. */
    @Incoming("post-accepted")
    public Uni<Void> consume(ConsumerRecords<String, String> records) {
        List<DeliveryStatements.HandedOver> batch = new ArrayList<>(records.count());
        for (ConsumerRecord<String, String> record : records) {
            PostAcceptedEvent event = read(record.value());
            if (event != null) {
                batch.add(new DeliveryStatements.HandedOver(event, TraceParents.header(record.headers())));
            }
        }
        if (batch.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        String events = batch.size() + " post.accepted events from "
                + batch.get(0).event().eventId();
        return EventRetry.untilApplied(events, () -> intake.accept(batch)).replaceWithVoid();
    }

    /** The event, or null (logged) when it cannot be delivered: a record nobody can read would stop the channel. */
    private PostAcceptedEvent read(String payload) {
        PostAcceptedEvent event;
        try {
            event = events.readValue(payload);
        } catch (IOException e) {
            LOG.errorf("skipping an unreadable post.accepted event: %s", e.getMessage());
            return null;
        }
        String problem = problemWith(event);
        if (problem != null) {
            LOG.errorf("skipping post.accepted event %s: %s", event == null ? null : event.eventId(), problem);
            return null;
        }
        return event;
    }

    /** Why an event cannot be delivered, or null when it can. */
    private static String problemWith(PostAcceptedEvent event) {
        if (event == null || event.eventId() == null || event.eventId().isBlank()) {
            return "no event_id";
        }
        if (!PostAcceptedEvent.TYPE.equals(event.type())) {
            return "type " + event.type() + " is not " + PostAcceptedEvent.TYPE;
        }
        if (event.workspaceId() == null || event.mode() == null) {
            return "no workspace_id or mode";
        }
        if (event.post() == null || event.post().id() == null) {
            return "no post";
        }
        if (event.deliveries() == null) {
            return "no deliveries";
        }
        for (PostAcceptedEvent.Delivery delivery : event.deliveries()) {
            if (delivery == null || delivery.accountId() == null || delivery.platform() == null) {
                return "a delivery without account_id or platform";
            }
        }
        return null;
    }
}
