package dev.herald.common.outbox;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.tracing.TraceParents;
import io.smallrye.mutiny.Uni;
import org.hibernate.reactive.mutiny.Mutiny;

/**
 * Appends an event to the outbox within the caller's transaction, so the event exists exactly when the
 * change it describes committed. Every service's schema has the same {@code outbox} table (see its V1
 * migration, and the migration that added {@code trace_parent}). The row keeps the traceparent of the
 * current trace (the request being served), which the relay sends along as a Kafka header.
 */
public final class OutboxWriter {
    private final ObjectMapper mapper;

    public OutboxWriter(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    public Uni<Void> append(Mutiny.Session session, String eventId, String topic, String key, Object event) {
        return append(session, eventId, topic, key, event, TraceParents.current());
    }

    /** The same, with the trace named explicitly (work that is not running inside the trace it belongs to). */
    public Uni<Void> append(Mutiny.Session session, String eventId, String topic, String key, Object event,
                            String traceParent) {
        String payload;
        try {
            payload = mapper.writeValueAsString(event);
        } catch (JsonProcessingException e) {
            return Uni.createFrom().failure(new IllegalStateException("event " + eventId + " cannot be serialized", e));
        }
        // Bound as text and cast: a String bound straight to a jsonb parameter is stored as a JSON string.
        return session.createNativeQuery(
                        "insert into outbox (event_id, topic, message_key, payload, trace_parent)"
                                + " values (?1, ?2, ?3, cast(cast(?4 as text) as jsonb), cast(?5 as text))")
                .setParameter(1, eventId)
                .setParameter(2, topic)
                .setParameter(3, key)
                .setParameter(4, payload)
                .setParameter(5, traceParent)
                .executeUpdate()
                .replaceWithVoid();
    }
}
