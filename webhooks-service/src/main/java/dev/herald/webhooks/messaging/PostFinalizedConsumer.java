package dev.herald.webhooks.messaging;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.herald.common.auth.Mode;
import dev.herald.common.time.Timestamps;
import dev.herald.common.tracing.TraceParents;
import dev.herald.common.wire.WebhookEventTypes;
import dev.herald.webhooks.repository.EventStatements.IncomingEvent;
import dev.herald.webhooks.service.EventBodies;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * {@code post.finalized} (consumer group {@code webhooks-service}): each final post becomes one webhook event with
 * a stable id and one delivery per subscribed endpoint, recorded with the event id in one transaction per batch of
 * records; the offsets are committed after it. Deliveries the sender has room for are leased to it in that
 * transaction and sent once it commits; for the rest the sender is woken at once. A record that cannot be read is
 * logged and skipped; a batch that cannot be stored (the database is away) is retried with backoff for as long
 * as it takes, so the partition waits rather than lose an event.
 */
@ApplicationScoped
public class PostFinalizedConsumer {
    private static final Logger LOG = Logger.getLogger(PostFinalizedConsumer.class);
    private static final int MAX_ID_LENGTH = 200;

    private final EventBodies bodies;
    private final EventIntake intake;
    private final Clock clock;
    private final ObjectReader reader;

    public PostFinalizedConsumer(EventBodies bodies, EventIntake intake, Clock clock, ObjectMapper mapper) {
        this.bodies = bodies;
        this.intake = intake;
        this.clock = clock;
        // Tolerant of fields a newer posts-service adds; the post itself is passed on exactly as it arrived.
        this.reader = mapper.reader().without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    }

    @Incoming("post-finalized")
    public Uni<Void> consume(ConsumerRecords<String, String> records) {
        List<IncomingEvent> batch = new ArrayList<>(records.count());
        for (ConsumerRecord<String, String> record : records) {
            // The traceparent header (posts-service's outbox relay sets it) stays with the event for its attempts.
            read(record.value(), TraceParents.header(record.headers())).ifPresent(batch::add);
        }
        return intake.store("post.finalized events", batch);
    }

    /** The event as a webhook event, or empty (logged) when it cannot be one. */
    Optional<IncomingEvent> read(String payload, String traceParent) {
        JsonNode event;
        try {
            event = payload == null ? null : reader.readTree(payload);
        } catch (IOException e) {
            LOG.errorf("skipping an unreadable post.finalized event: %s", e.getMessage());
            return Optional.empty();
        }
        if (event == null || !event.isObject()) {
            LOG.errorf("skipping a post.finalized event that is not a JSON object");
            return Optional.empty();
        }
        String eventId = text(event, "event_id");
        String type = text(event, "type");
        String workspaceId = text(event, "workspace_id");
        Optional<Mode> mode = Mode.fromWire(text(event, "mode"));
        JsonNode post = event.get("post");
        if (eventId == null || eventId.isBlank() || eventId.length() > MAX_ID_LENGTH) {
            LOG.errorf("skipping a post.finalized event without a usable event_id");
            return Optional.empty();
        }
        if (type == null || !WebhookEventTypes.POST_FINALIZED.contains(type)) {
            LOG.errorf("skipping post.finalized event %s: type %s is not a webhook event", eventId, type);
            return Optional.empty();
        }
        if (workspaceId == null || workspaceId.isBlank() || workspaceId.length() > MAX_ID_LENGTH || mode.isEmpty()) {
            LOG.errorf("skipping post.finalized event %s: no usable workspace_id or mode", eventId);
            return Optional.empty();
        }
        if (post == null || !post.isObject() || text(post, "id") == null) {
            LOG.errorf("skipping post.finalized event %s: no post", eventId);
            return Optional.empty();
        }
        Instant occurredAt = Timestamps.parseRfc3339(text(event, "occurred_at")).orElseGet(() -> Timestamps.now(clock));
        String id = EventBodies.eventIdFor(eventId);
        return Optional.of(new IncomingEvent(
                eventId,
                id,
                workspaceId,
                mode.get(),
                type,
                bodies.body(id, type, occurredAt, mode.get(), post),
                occurredAt,
                traceParent));
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value != null && value.isTextual() ? value.textValue() : null;
    }
}
