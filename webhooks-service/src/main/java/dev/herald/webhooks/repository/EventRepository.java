package dev.herald.webhooks.repository;

import dev.herald.common.auth.Mode;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.common.tracing.TraceParents;
import dev.herald.webhooks.model.WebhookDelivery;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Webhook events and the deliveries they fan out to. */
@ApplicationScoped
public class EventRepository {
    private final Pool pool;

    public EventRepository(Pool pool) {
        this.pool = pool;
    }

    /**
     * A final post as a webhook event: its id, tenant, type, the exact body to send, and the post.finalized event
     * it came from.
     */
    public record IncomingEvent(String sourceEventId, String eventId, String workspaceId, Mode mode, String type,
                                String payload, Instant createdAt, String traceParent) {
    }

    /**
     * Applies a batch of events in one transaction: records their source ids (an id seen before changes nothing),
     * and for each new one creates the event and one pending delivery, due now, per enabled endpoint of its
     * workspace and mode subscribed to its type. An event no endpoint wants is not stored. Answers how many
     * deliveries were created.
     */
    public Uni<Integer> intake(List<IncomingEvent> batch, Instant now) {
        Map<String, IncomingEvent> bySource = new LinkedHashMap<>();
        batch.forEach(event -> bySource.putIfAbsent(event.sourceEventId(), event));
        return pool.withTransaction(connection -> connection.preparedQuery("""
                        insert into processed_events (event_id, processed_at) select unnest($1::text[]), $2
                        on conflict do nothing returning event_id""")
                .execute(SqlParameters.of(bySource.keySet().toArray(String[]::new), now))
                .flatMap(rows -> {
                    List<IncomingEvent> fresh = new ArrayList<>();
                    rows.forEach(row -> fresh.add(bySource.get(row.getString("event_id"))));
                    return fresh.isEmpty() ? Uni.createFrom().item(0) : fanOut(connection, fresh, now);
                }));
    }

    private Uni<Integer> fanOut(SqlConnection connection, List<IncomingEvent> fresh, Instant now) {
        Map<String, IncomingEvent> byEventId = new LinkedHashMap<>();
        fresh.forEach(event -> byEventId.put(event.eventId(), event));
        return connection.preparedQuery("""
                        select i.event_id, w.id as endpoint_id
                        from unnest($1::text[], $2::text[], $3::text[], $4::text[]) as i(event_id, workspace_id, mode, type)
                        join endpoints w on w.workspace_id = i.workspace_id and w.mode = i.mode and w.status = 'enabled'
                            and i.type = any(w.events)
                        order by i.event_id, w.created_at, w.id""")
                .execute(Tuple.tuple()
                        .addArrayOfString(fresh.stream().map(IncomingEvent::eventId).toArray(String[]::new))
                        .addArrayOfString(fresh.stream().map(IncomingEvent::workspaceId).toArray(String[]::new))
                        .addArrayOfString(fresh.stream().map(event -> event.mode().wireName()).toArray(String[]::new))
                        .addArrayOfString(fresh.stream().map(IncomingEvent::type).toArray(String[]::new)))
                .flatMap(rows -> {
                    List<String[]> pairs = new ArrayList<>();
                    for (Row row : rows) {
                        pairs.add(new String[] {row.getString("event_id"), row.getString("endpoint_id")});
                    }
                    if (pairs.isEmpty()) {
                        return Uni.createFrom().item(0);
                    }
                    Set<String> wanted = new HashSet<>();
                    pairs.forEach(pair -> wanted.add(pair[0]));
                    List<IncomingEvent> events = byEventId.values().stream().filter(event -> wanted.contains(event.eventId())).toList();
                    return insertEvents(connection, events).flatMap(ignored -> insertDeliveries(connection, pairs, byEventId, now));
                });
    }

    private static Uni<Void> insertEvents(SqlConnection connection, List<IncomingEvent> events) {
        return connection.preparedQuery("""
                        insert into events (id, workspace_id, mode, type, source_event_id, payload, created_at, trace_parent)
                        select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[],
                            $8::text[])
                        on conflict do nothing""")
                .execute(Tuple.tuple()
                        .addArrayOfString(events.stream().map(IncomingEvent::eventId).toArray(String[]::new))
                        .addArrayOfString(events.stream().map(IncomingEvent::workspaceId).toArray(String[]::new))
                        .addArrayOfString(events.stream().map(event -> event.mode().wireName()).toArray(String[]::new))
                        .addArrayOfString(events.stream().map(IncomingEvent::type).toArray(String[]::new))
                        .addArrayOfString(events.stream().map(IncomingEvent::sourceEventId).toArray(String[]::new))
                        .addArrayOfString(events.stream().map(IncomingEvent::payload).toArray(String[]::new))
                        .addArrayOfOffsetDateTime(SqlParameters.offsets(events.stream().map(IncomingEvent::createdAt).toArray(Instant[]::new)))
                        .addArrayOfString(events.stream().map(IncomingEvent::traceParent).toArray(String[]::new)))
                .replaceWithVoid();
    }

    private static Uni<Integer> insertDeliveries(SqlConnection connection, List<String[]> pairs, Map<String, IncomingEvent> events,
                                                 Instant now) {
        int count = pairs.size();
        String[] ids = new String[count];
        String[] eventIds = new String[count];
        String[] types = new String[count];
        String[] endpointIds = new String[count];
        String[] workspaces = new String[count];
        String[] modes = new String[count];
        for (int i = 0; i < count; i++) {
            IncomingEvent event = events.get(pairs.get(i)[0]);
            ids[i] = ResourceIds.newId(IdPrefix.DELIVERY);
            eventIds[i] = event.eventId();
            types[i] = event.type();
            endpointIds[i] = pairs.get(i)[1];
            workspaces[i] = event.workspaceId();
            modes[i] = event.mode().wireName();
        }
        return connection.preparedQuery("""
                        insert into deliveries (id, event_id, event_type, endpoint_id, workspace_id, mode, status,
                            next_attempt_at, due_at, created_at, updated_at)
                        select i.id, i.event_id, i.type, i.endpoint_id, i.workspace_id, i.mode, 'pending', $7, $7, $7, $7
                        from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
                            as i(id, event_id, type, endpoint_id, workspace_id, mode)
                        on conflict (event_id, endpoint_id) do nothing""")
                .execute(Tuple.tuple().addArrayOfString(ids).addArrayOfString(eventIds).addArrayOfString(types)
                        .addArrayOfString(endpointIds).addArrayOfString(workspaces).addArrayOfString(modes)
                        .addOffsetDateTime(SqlParameters.offset(now)))
                .map(rows -> rows.rowCount());
    }

    /** A {@code webhook.test} event for one endpoint and its delivery, due now, in one transaction. */
    public Uni<WebhookDelivery> insertTest(String workspaceId, Mode mode, String eventId, String endpointId, String payload,
                                           Instant now) {
        String deliveryId = ResourceIds.newId(IdPrefix.DELIVERY);
        return pool.withTransaction(connection -> connection.preparedQuery("""
                        insert into events (id, workspace_id, mode, type, payload, created_at, trace_parent)
                        values ($1, $2, $3, 'webhook.test', $4, $5, $6)""")
                .execute(SqlParameters.of(eventId, workspaceId, mode.wireName(), payload, now, TraceParents.current()))
                .flatMap(ignored -> connection.preparedQuery("""
                                insert into deliveries (id, event_id, event_type, endpoint_id, workspace_id, mode, status,
                                    next_attempt_at, due_at, created_at, updated_at)
                                values ($1, $2, 'webhook.test', $3, $4, $5, 'pending', $6, $6, $6, $6)
                                returning id, event_id, event_type, endpoint_id, status, attempts, last_response_status,
                                    last_error, last_response_body, next_attempt_at, created_at, updated_at, delivered_at""")
                        .execute(SqlParameters.of(deliveryId, eventId, endpointId, workspaceId, mode.wireName(), now)))
                .map(rows -> DeliveryRepository.delivery(rows.iterator().next())));
    }
}
