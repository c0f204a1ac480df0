package dev.herald.common.outbox;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.tracing.TraceParents;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Tuple;
import java.util.List;
import org.hibernate.reactive.mutiny.Mutiny;

/**
 * Appends events to the outbox within the caller's transaction, so an event exists exactly when the change it
 * describes committed. Every service's schema has the same {@code outbox} table (see its V1 migration, and the
 * migration that added {@code trace_parent}). Each row keeps the traceparent of the trace it belongs to (by default
 * the request being served), which the relay sends along as a Kafka header.
 */
public final class OutboxWriter {
    /**
     * One event for the outbox: its id, topic, message key (the aggregate's id), the event itself and the
     * traceparent of the trace it belongs to (null outside any sampled trace).
     */
    public record Entry(String eventId, String topic, String key, Object event, String traceParent) {
        /** An event of the trace being served now. */
        public Entry(String eventId, String topic, String key, Object event) {
            this(eventId, topic, key, event, TraceParents.current());
        }
    }

    private static final int PARAMETERS_PER_ROW = 5;

    /** Rows per insert statement: five parameters each, far below PostgreSQL's 65,535. */
    private static final int ROWS_PER_STATEMENT = 500;

    private final ObjectMapper mapper;

    public OutboxWriter(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    /**
     * Appends one outbox row's columns to a statement's parameters, for statements on the Vert.x pool that write the
     * row themselves: {@code event_id, topic, message_key, payload, trace_parent}, five nulls when {@code entry} is
     * null. The payload is bound as text; the statement casts it ({@code ::text::jsonb}), since a string bound to a
     * jsonb parameter would be stored as a JSON string.
     */
    public Tuple bind(Tuple parameters, Entry entry) {
        if (entry == null) {
            return parameters
                    .addValue(null)
                    .addValue(null)
                    .addValue(null)
                    .addValue(null)
                    .addValue(null);
        }
        return parameters
                .addValue(entry.eventId())
                .addValue(entry.topic())
                .addValue(entry.key())
                .addValue(payload(entry))
                .addValue(entry.traceParent());
    }

    /** The same for several rows, each column as an array ({@code unnest($n::text[], ...)}). */
    public Tuple bindAll(Tuple parameters, List<Entry> entries) {
        return parameters
                .addValue(entries.stream().map(Entry::eventId).toArray(String[]::new))
                .addValue(entries.stream().map(Entry::topic).toArray(String[]::new))
                .addValue(entries.stream().map(Entry::key).toArray(String[]::new))
                .addValue(entries.stream().map(this::payload).toArray(String[]::new))
                .addValue(entries.stream().map(Entry::traceParent).toArray(String[]::new));
    }

    private String payload(Entry entry) {
        try {
            return mapper.writeValueAsString(entry.event());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("event " + entry.eventId() + " cannot be serialized", e);
        }
    }

    public Uni<Void> append(Mutiny.Session session, String eventId, String topic, String key, Object event) {
        return append(session, eventId, topic, key, event, TraceParents.current());
    }

    /** The same, with the trace named explicitly (work that is not running inside the trace it belongs to). */
    public Uni<Void> append(
            Mutiny.Session session, String eventId, String topic, String key, Object event, String traceParent) {
        return appendAll(session, List.of(new Entry(eventId, topic, key, event, traceParent)));
    }

    /**
     * Appends several events with one statement (per {@value #ROWS_PER_STATEMENT}). This matters beyond the
     * round trips: every native statement makes Hibernate flush and dirty-check each entity of the session first,
     * so one insert per event after changing many entities costs time quadratic in the batch.
     */
    public Uni<Void> appendAll(Mutiny.Session session, List<Entry> entries) {
        List<String> payloads;
        try {
            payloads = entries.stream().map(this::payload).toList();
        } catch (IllegalStateException e) {
            return Uni.createFrom().failure(e);
        }
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (int from = 0; from < entries.size(); from += ROWS_PER_STATEMENT) {
            int start = from;
            int end = Math.min(entries.size(), from + ROWS_PER_STATEMENT);
            chain = chain.chain(() -> insert(session, entries.subList(start, end), payloads.subList(start, end)));
        }
        return chain;
    }

    private static Uni<Void> insert(Mutiny.Session session, List<Entry> entries, List<String> payloads) {
        StringBuilder sql =
                new StringBuilder("insert into outbox (event_id, topic, message_key, payload, trace_parent) values ");
        for (int i = 0; i < entries.size(); i++) {
            int p = i * PARAMETERS_PER_ROW;
            // Bound as text and cast: a String bound straight to a jsonb parameter is stored as a JSON string, and
            // a null traceparent needs a type.
            sql.append(i == 0 ? "" : ", ")
                    .append("(?")
                    .append(p + 1)
                    .append(", ?")
                    .append(p + 2)
                    .append(", ?")
                    .append(p + 3)
                    .append(", cast(cast(?")
                    .append(p + 4)
                    .append(" as text) as jsonb), cast(?")
                    .append(p + 5)
                    .append(" as text))");
        }
        var query = session.createNativeQuery(sql.toString());
        for (int i = 0; i < entries.size(); i++) {
            Entry entry = entries.get(i);
            int p = i * PARAMETERS_PER_ROW;
            query.setParameter(p + 1, entry.eventId())
                    .setParameter(p + 2, entry.topic())
                    .setParameter(p + 3, entry.key())
                    .setParameter(p + 4, payloads.get(i))
                    .setParameter(p + 5, entry.traceParent());
        }
        return query.executeUpdate().replaceWithVoid();
    }
}
