package dev.herald.delivery.messaging;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.events.TargetCompletedEvent;
import dev.herald.common.events.Topics;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Appends {@code target.completed} to the outbox inside the transaction that made the delivery final, keyed by
 * post id (so a post's targets stay in order for posts-service). common's {@code OutboxWriter} works on a
 * Hibernate session; the worker has none, so this is the same insert on the reactive connection.
 */
@ApplicationScoped
public class TargetCompletedOutbox {
    private final ObjectMapper mapper;

    public TargetCompletedOutbox(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    /** {@code traceParent}: the delivery's trace, sent on with the event (null when it has none). */
    public Uni<Void> append(SqlConnection connection, TargetCompletedEvent event, String traceParent) {
        String payload;
        try {
            payload = mapper.writeValueAsString(event);
        } catch (JsonProcessingException e) {
            return Uni.createFrom().failure(new IllegalStateException("event " + event.eventId() + " cannot be serialized", e));
        }
        // Bound as text and cast: a string bound straight to a jsonb parameter would be stored as a JSON string.
        return connection.preparedQuery("insert into outbox (event_id, topic, message_key, payload, trace_parent)"
                        + " values ($1, $2, $3, $4::text::jsonb, $5)")
                .execute(Tuple.of(event.eventId(), Topics.TARGET_COMPLETED, event.postId(), payload, traceParent))
                .replaceWithVoid();
    }
}
