package dev.herald.delivery.messaging;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.herald.common.events.PostAcceptedEvent;
import dev.herald.common.messaging.EventRetry;
import dev.herald.common.tracing.TraceParents;
import dev.herald.delivery.service.DeliveryIntake;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * {@code post.accepted}: a post handed to delivery. Its deliveries are recorded with the event id in one
 * transaction (a redelivered event changes nothing), then attempted at once; the offset is committed after that
 * transaction, not after the deliveries, which their leases keep safe. The record's {@code traceparent} header (the
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

    @Incoming("post-accepted")
    public Uni<Void> consume(String payload, IncomingKafkaRecordMetadata<String, String> record) {
        PostAcceptedEvent event;
        try {
            event = events.readValue(payload);
        } catch (IOException e) {
            // A message nobody can read would otherwise stop the channel for good; it is logged and skipped.
            LOG.errorf("skipping an unreadable post.accepted event: %s", e.getMessage());
            return Uni.createFrom().voidItem();
        }
        String problem = problemWith(event);
        if (problem != null) {
            LOG.errorf("skipping post.accepted event %s: %s", event == null ? null : event.eventId(), problem);
            return Uni.createFrom().voidItem();
        }
        String traceParent = TraceParents.header(record.getHeaders());
        return EventRetry.untilApplied("post.accepted " + event.eventId(), () -> intake.accept(event, traceParent))
                .replaceWithVoid();
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
