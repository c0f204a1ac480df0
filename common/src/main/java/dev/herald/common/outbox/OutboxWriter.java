package dev.herald.common.outbox;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.persistence.NamedStatement;
import dev.herald.common.tracing.TraceParents;
import io.smallrye.mutiny.Uni;
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

    /** The outbox's columns, named once for every statement that writes outbox rows. */
    private static final String INSERT = "insert into outbox (event_id, topic, message_key, payload, trace_parent)";

    /**
     * For a statement on the Vert.x pool ({@link NamedStatement}) that writes its outbox row itself, in the same
     * statement as the change it describes: inserts the row {@link #bind} binds, once per row of {@code source} (a
     * CTE's name, whose rows say the change took effect), and none when no entry is bound. The payload is bound as
     * text and cast ({@code ::text::jsonb}), since a string bound to a jsonb parameter would be stored as a JSON
     * string.
     */
    public static String insertOnePerRowOf(String source) {
        return INSERT + """

                select :outbox_event_id, :outbox_topic, :outbox_message_key, :outbox_payload::text::jsonb,
                    :outbox_trace_parent
                from\s""" + source + " where :outbox_event_id::text is not null";
    }

    /**
     * The same for the several rows {@link #bindAll} binds, each column an array: inserted when {@code condition}
     * holds (for instance {@code exists (select 1 from meter)}).
     */
    public static String insertAllWhen(String condition) {
        return insertAll("e.payload::jsonb", "where " + condition);
    }

    /**
     * The several rows {@link #bindAll} binds, once per row of {@code joined} (a CTE, written {@code name alias}),
     * each payload computed by {@code payload}, an SQL expression of {@code e.payload} (jsonb) and the joined row's
     * columns: for an event that carries what its own statement worked out (usage-service's meter state).
     */
    public static String insertAllJoinedWith(String joined, String payload) {
        return insertAll(payload, "cross join " + joined);
    }

    private static String insertAll(String payload, String tail) {
        return INSERT + """

                select e.event_id, e.topic, e.message_key, %s, e.trace_parent
                from unnest(:outbox_event_ids::text[], :outbox_topics::text[], :outbox_message_keys::text[],
                    :outbox_payloads::text[], :outbox_trace_parents::text[])
                    as e(event_id, topic, message_key, payload, trace_parent)
                %s""".formatted(payload, tail);
    }

    /** Binds the row of {@link #insertOnePerRowOf}: {@code entry}'s columns, or nulls when it is null (no row). */
    public NamedStatement.Parameters bind(NamedStatement.Parameters parameters, Entry entry) {
        return parameters
                .set("outbox_event_id", entry == null ? null : entry.eventId())
                .set("outbox_topic", entry == null ? null : entry.topic())
                .set("outbox_message_key", entry == null ? null : entry.key())
                .set("outbox_payload", entry == null ? null : payload(entry))
                .set("outbox_trace_parent", entry == null ? null : entry.traceParent());
    }

    /** Binds the rows of {@link #insertAllWhen}. */
    public NamedStatement.Parameters bindAll(NamedStatement.Parameters parameters, List<Entry> entries) {
        return parameters
                .set("outbox_event_ids", entries.stream().map(Entry::eventId).toArray(String[]::new))
                .set("outbox_topics", entries.stream().map(Entry::topic).toArray(String[]::new))
                .set("outbox_message_keys", entries.stream().map(Entry::key).toArray(String[]::new))
                .set("outbox_payloads", entries.stream().map(this::payload).toArray(String[]::new))
                .set(
                        "outbox_trace_parents",
                        entries.stream().map(Entry::traceParent).toArray(String[]::new));
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
        StringBuilder sql = new StringBuilder(INSERT).append(" values ");
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
