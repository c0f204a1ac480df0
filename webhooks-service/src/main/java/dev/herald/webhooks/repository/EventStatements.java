package dev.herald.webhooks.repository;

import dev.herald.common.auth.Mode;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.common.messaging.ProcessedEvents;
import dev.herald.common.persistence.NamedStatement;
import dev.herald.common.tracing.TraceParents;
import dev.herald.common.wire.WebhookDelivery;
import dev.herald.common.wire.WebhookEndpoint;
import dev.herald.webhooks.model.ClaimedDelivery;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

/**
 * Webhook events and the deliveries they fan out to. Longer than 300 lines because an intake is one unit: matching
 * endpoints, recording what was applied, storing events and deliveries with their direct leases are the statements
 * of one transaction, and read best together.
 */
@ApplicationScoped
public class EventStatements {
    /**
     * The endpoints each event of a batch goes to; every event that goes nowhere is recorded as processed in the
     * same statement.
     */
    private static final NamedStatement MATCH_ENDPOINTS =
            NamedStatement.of("""
            with incoming as (
                select * from unnest(:event_ids::text[], :source_event_ids::text[], :workspace_ids::text[],
                    :modes::text[], :types::text[])
                    as i(event_id, source_event_id, workspace_id, mode, type)
            ), endpoint as materialized (
                select w.id, w.workspace_id, w.mode, w.events, w.url, w.created_at,
                    (select count(*) from deliveries d
                     where d.endpoint_id = w.id and d.lease_token is not null and d.lease_until > :now) as leased,
                    array(select s.sealed from endpoint_secrets s
                          where s.endpoint_id = w.id and (s.expires_at is null or s.expires_at > :now)
                          order by s.expires_at desc nulls first, s.id desc) as secrets
                from endpoints w
                where w.status = 'enabled'
                    and (w.workspace_id, w.mode) in (select workspace_id, mode from incoming)
            ), matched as (
                select i.event_id, w.id as endpoint_id, w.url, w.leased, w.secrets, w.created_at
                from incoming i
                join endpoint w on w.workspace_id = i.workspace_id and w.mode = i.mode and i.type = any(w.events)
            ), unwanted as (%s)
            select event_id, endpoint_id, url, leased, secrets from matched
            order by event_id, created_at, endpoint_id""".formatted(ProcessedEvents.recordNew("""
                    select i.source_event_id from incoming i
                    where :record_unwanted and not exists (select 1 from matched m where m.event_id = i.event_id)""")));

    private static final NamedStatement MARK_PROCESSED =
            NamedStatement.of(ProcessedEvents.recordNew("select unnest(:source_event_ids::text[])"));

    private static final NamedStatement INSERT_EVENTS = NamedStatement.of("""
            insert into events (id, workspace_id, mode, type, source_event_id, payload, created_at, trace_parent)
            select * from unnest(:ids::text[], :workspace_ids::text[], :modes::text[], :types::text[],
                :source_event_ids::text[], :payloads::text[], :created_at::timestamptz[], :trace_parents::text[])
            on conflict do nothing""");

    private static final NamedStatement INSERT_DELIVERIES = NamedStatement.of("""
            insert into deliveries (id, event_id, event_type, endpoint_id, workspace_id, mode, status,
                next_attempt_at, due_at, created_at, updated_at, lease_token, lease_until, attempts)
            select i.id, i.event_id, i.type, i.endpoint_id, i.workspace_id, i.mode, 'pending', :now::timestamptz,
                case when i.token is null then :now::timestamptz else :lease_until::timestamptz end,
                :now::timestamptz, :now::timestamptz,
                i.token, case when i.token is null then null else :lease_until::timestamptz end,
                case when i.token is null then 0 else 1 end
            from unnest(:ids::text[], :event_ids::text[], :types::text[], :endpoint_ids::text[],
                    :workspace_ids::text[], :modes::text[], :tokens::uuid[])
                as i(id, event_id, type, endpoint_id, workspace_id, mode, token)
            on conflict (event_id, endpoint_id) do nothing
            returning id""");

    private static final NamedStatement INSERT_TEST_EVENT = NamedStatement.of("""
            insert into events (id, workspace_id, mode, type, payload, created_at, trace_parent)
            values (:id, :workspace_id, :mode, 'webhook.test', :payload, :now, :trace_parent)""");

    private static final NamedStatement INSERT_TEST_DELIVERY = NamedStatement.of("""
            insert into deliveries (id, event_id, event_type, endpoint_id, workspace_id, mode, status,
                next_attempt_at, due_at, created_at, updated_at)
            values (:id, :event_id, 'webhook.test', :endpoint_id, :workspace_id, :mode, 'pending', :now, :now, :now,
                :now)
            returning id, event_id, event_type, endpoint_id, status, attempts, last_response_status,
                last_error, last_response_body, next_attempt_at, created_at, updated_at, delivered_at""");

    private static final NamedStatement DELETE_UNDELIVERED_BEFORE = NamedStatement.of("""
            delete from events where id in (
                select id from events e where created_at < :cutoff
                  and not exists (select 1 from deliveries d where d.event_id = e.id)
                order by created_at limit :limit for update skip locked)""");

    private final Pool pool;

    public EventStatements(Pool pool) {
        this.pool = pool;
    }

    /**
     * A webhook event: its id, tenant, type, the exact body to send, and the event it came from (a post.finalized
     * or account event; a usage threshold's own key).
     */
    public record IncomingEvent(
            String sourceEventId,
            String eventId,
            String workspaceId,
            Mode mode,
            String type,
            String payload,
            Instant createdAt,
            String traceParent) {}

    /**
     * How many of a batch's new deliveries the intake may lease straight to this sender: at most {@code slots}
     * (the sender's free attempt slots), at most {@code perEndpoint} in flight per endpoint (counting the leases
     * every sender holds), leased until {@code leaseUntil}.
     */
    public record DirectLeases(int slots, int perEndpoint, Instant leaseUntil) {}

    /** What an intake did: how many deliveries it created, and those of them leased to this sender. */
    public record Intake(int created, List<ClaimedDelivery> leased) {
        static final Intake NOTHING = new Intake(0, List.of());
    }

    /**
     * Applies a batch of events: records their source ids (an id seen before changes nothing), and for each new one
     * creates the event and one pending delivery, due now, per enabled endpoint of its workspace and mode subscribed to
     * its type. An event no endpoint wants is not stored: the statement that finds the endpoints records it as
     * processed and that is all it costs (one statement, no transaction; most tenants have no endpoint). The events
     * some endpoint wants are recorded, stored and fanned out in one transaction.
     * <p>
     * Deliveries the sender has room for are created already claimed (leased, their first attempt counted) and
     * come back to be sent once the transaction has committed: claiming them later would rewrite every new row
     * once more (a second index entry in each of the table's indexes) and cost the sender a query. They keep the
     * same guarantees as claimed ones: a sender that dies before their outcome is written loses the lease, and
     * they are claimed again when it lapses.
     */
    public Uni<Intake> intake(List<IncomingEvent> batch, Instant now, DirectLeases leases) {
        Map<String, IncomingEvent> bySource = new LinkedHashMap<>();
        batch.forEach(event -> bySource.putIfAbsent(event.sourceEventId(), event));
        return matchEndpoints(pool, List.copyOf(bySource.values()), now, true)
                .flatMap(matches -> matches.isEmpty()
                        ? Uni.createFrom().item(Intake.NOTHING)
                        : pool.withTransaction(connection -> markProcessed(connection, matches)
                                .flatMap(fresh -> {
                                    List<Match> kept = matches.stream()
                                            .filter(match ->
                                                    fresh.contains(match.event().sourceEventId()))
                                            .toList();
                                    return kept.isEmpty()
                                            ? Uni.createFrom().item(Intake.NOTHING)
                                            : fanOut(connection, kept, now, leases);
                                })));
    }

    /**
     * Like {@link #intake}, for events that happen once per key rather than once per source event: {@code admit},
     * run first in the transaction, records the keys of the batch for good and answers the ids of the events whose
     * key it recorded now; only those are stored and fanned out, so a key never makes a second event, whatever
     * redeliveries or replicas do.
     */
    public Uni<Intake> intakeOnce(
            List<IncomingEvent> batch,
            Instant now,
            DirectLeases leases,
            Function<SqlConnection, Uni<Set<String>>> admit) {
        return pool.withTransaction(connection -> admit.apply(connection).flatMap(admitted -> {
            List<IncomingEvent> fresh = batch.stream()
                    .filter(event -> admitted.contains(event.eventId()))
                    .toList();
            return fresh.isEmpty()
                    ? Uni.createFrom().item(Intake.NOTHING)
                    : matchEndpoints(connection, fresh, now, false)
                            .flatMap(matches -> matches.isEmpty()
                                    ? Uni.createFrom().item(Intake.NOTHING)
                                    : fanOut(connection, matches, now, leases));
        }));
    }

    /** An enabled endpoint that wants an event, with its leases in flight and its secrets as of the match. */
    private record Match(IncomingEvent event, String endpointId, String url, int leased, List<String> sealedSecrets) {}

    /** One (event, endpoint) pair to create a delivery for, and what an attempt needs should it be leased now. */
    private record Fan(
            IncomingEvent event, String endpointId, String url, List<String> sealedSecrets, boolean leased) {}

    /**
     * The endpoints each event goes to, in endpoint creation order; in the same statement, every event that goes
     * nowhere is recorded as processed. Each endpoint's leases and secrets are read once per batch (materialized),
     * not once per event. A redelivered event is matched again here; its recorded id stops it in the transaction.
     * Without {@code recordUnwanted}, nothing is recorded (the caller has its own record).
     */
    private Uni<List<Match>> matchEndpoints(
            SqlClient client, List<IncomingEvent> events, Instant now, boolean recordUnwanted) {
        Map<String, IncomingEvent> byEventId = new LinkedHashMap<>();
        events.forEach(event -> byEventId.put(event.eventId(), event));
        return MATCH_ENDPOINTS
                .parameters()
                .set("event_ids", events.stream().map(IncomingEvent::eventId).toArray(String[]::new))
                .set(
                        "source_event_ids",
                        events.stream().map(IncomingEvent::sourceEventId).toArray(String[]::new))
                .set(
                        "workspace_ids",
                        events.stream().map(IncomingEvent::workspaceId).toArray(String[]::new))
                .set(
                        "modes",
                        events.stream().map(event -> event.mode().wireName()).toArray(String[]::new))
                .set("types", events.stream().map(IncomingEvent::type).toArray(String[]::new))
                .set("now", now)
                .set("record_unwanted", recordUnwanted)
                .execute(client)
                .map(rows -> {
                    List<Match> matches = new ArrayList<>();
                    for (Row row : rows) {
                        matches.add(new Match(
                                byEventId.get(row.getString("event_id")),
                                row.getString("endpoint_id"),
                                row.getString("url"),
                                row.getLong("leased").intValue(),
                                Arrays.asList(row.getArrayOfStrings("secrets"))));
                    }
                    return matches;
                });
    }

    /** Records the matched events' source ids; answers those recorded now, the others were applied before. */
    private static Uni<Set<String>> markProcessed(SqlConnection connection, List<Match> matches) {
        String[] sourceIds = matches.stream()
                .map(match -> match.event().sourceEventId())
                .distinct()
                .toArray(String[]::new);
        return MARK_PROCESSED
                .parameters()
                .set("source_event_ids", sourceIds)
                .execute(connection)
                .map(rows -> {
                    Set<String> fresh = new HashSet<>();
                    rows.forEach(row -> fresh.add(row.getString("event_id")));
                    return fresh;
                });
    }

    /** Leases as many new deliveries as the sender has room for, then stores the events and their deliveries. */
    private Uni<Intake> fanOut(SqlConnection connection, List<Match> matches, Instant now, DirectLeases leases) {
        List<Fan> fans = new ArrayList<>();
        Map<String, Integer> inFlight = new HashMap<>();
        int slots = leases.slots();
        for (Match match : matches) {
            int endpointInFlight = inFlight.computeIfAbsent(match.endpointId(), id -> match.leased());
            boolean leased = slots > 0 && endpointInFlight < leases.perEndpoint();
            if (leased) {
                slots--;
                inFlight.put(match.endpointId(), endpointInFlight + 1);
            }
            fans.add(new Fan(match.event(), match.endpointId(), match.url(), match.sealedSecrets(), leased));
        }
        List<IncomingEvent> events = fans.stream().map(Fan::event).distinct().toList();
        return insertEvents(connection, events).flatMap(ignored -> insertDeliveries(connection, fans, now, leases));
    }

    private static Uni<Void> insertEvents(SqlConnection connection, List<IncomingEvent> events) {
        return INSERT_EVENTS
                .parameters()
                .set("ids", events.stream().map(IncomingEvent::eventId).toArray(String[]::new))
                .set(
                        "workspace_ids",
                        events.stream().map(IncomingEvent::workspaceId).toArray(String[]::new))
                .set(
                        "modes",
                        events.stream().map(event -> event.mode().wireName()).toArray(String[]::new))
                .set("types", events.stream().map(IncomingEvent::type).toArray(String[]::new))
                .set(
                        "source_event_ids",
                        events.stream().map(IncomingEvent::sourceEventId).toArray(String[]::new))
                .set("payloads", events.stream().map(IncomingEvent::payload).toArray(String[]::new))
                .set("created_at", events.stream().map(IncomingEvent::createdAt).toArray(Instant[]::new))
                .set(
                        "trace_parents",
                        events.stream().map(IncomingEvent::traceParent).toArray(String[]::new))
                .execute(connection)
                .replaceWithVoid();
    }

    /**
     * Inserts the deliveries, the leased ones claimed as {@link DeliveryAttemptStatements#claimDue} would claim them: a
     * lease token, due when the lease ends, the first attempt counted. Answers only those actually inserted.
     */
    private static Uni<Intake> insertDeliveries(
            SqlConnection connection, List<Fan> fans, Instant now, DirectLeases leases) {
        int count = fans.size();
        String[] ids = new String[count];
        String[] eventIds = new String[count];
        String[] types = new String[count];
        String[] endpointIds = new String[count];
        String[] workspaces = new String[count];
        String[] modes = new String[count];
        UUID[] tokens = new UUID[count];
        Map<String, ClaimedDelivery> leased = new LinkedHashMap<>();
        for (int i = 0; i < count; i++) {
            Fan fan = fans.get(i);
            ids[i] = ResourceIds.newId(IdPrefix.DELIVERY);
            eventIds[i] = fan.event().eventId();
            types[i] = fan.event().type();
            endpointIds[i] = fan.endpointId();
            workspaces[i] = fan.event().workspaceId();
            modes[i] = fan.event().mode().wireName();
            if (fan.leased()) {
                tokens[i] = UUID.randomUUID();
                leased.put(
                        ids[i],
                        new ClaimedDelivery(
                                ids[i],
                                eventIds[i],
                                types[i],
                                fan.endpointId(),
                                1,
                                false,
                                tokens[i],
                                fan.event().payload(),
                                fan.url(),
                                WebhookEndpoint.ENABLED,
                                fan.sealedSecrets(),
                                fan.event().traceParent()));
            }
        }
        return INSERT_DELIVERIES
                .parameters()
                .set("ids", ids)
                .set("event_ids", eventIds)
                .set("types", types)
                .set("endpoint_ids", endpointIds)
                .set("workspace_ids", workspaces)
                .set("modes", modes)
                .set("now", now)
                .set("lease_until", leases.leaseUntil())
                .set("tokens", tokens)
                .execute(connection)
                .map(rows -> {
                    List<ClaimedDelivery> inserted = new ArrayList<>();
                    rows.forEach(row -> {
                        ClaimedDelivery delivery = leased.get(row.getString("id"));
                        if (delivery != null) {
                            inserted.add(delivery);
                        }
                    });
                    return new Intake(rows.rowCount(), inserted);
                });
    }

    /** A {@code webhook.test} event for one endpoint and its delivery, due now, in one transaction. */
    public Uni<WebhookDelivery> insertTest(
            String workspaceId, Mode mode, String eventId, String endpointId, String payload, Instant now) {
        String deliveryId = ResourceIds.newId(IdPrefix.DELIVERY);
        return pool.withTransaction(connection -> INSERT_TEST_EVENT
                .parameters()
                .set("id", eventId)
                .set("workspace_id", workspaceId)
                .set("mode", mode.wireName())
                .set("payload", payload)
                .set("now", now)
                .set("trace_parent", TraceParents.current())
                .execute(connection)
                .flatMap(ignored -> INSERT_TEST_DELIVERY
                        .parameters()
                        .set("id", deliveryId)
                        .set("event_id", eventId)
                        .set("endpoint_id", endpointId)
                        .set("workspace_id", workspaceId)
                        .set("mode", mode.wireName())
                        .set("now", now)
                        .execute(connection))
                .map(rows -> DeliveryStatements.delivery(rows.iterator().next())));
    }

    /**
     * Deletes up to {@code limit} events created before {@code cutoff} that no delivery refers to any more (their
     * deliveries were purged); how many. An old event whose delivery was retried by hand lately stays with it.
     */
    public Uni<Integer> deleteUndeliveredBefore(Instant cutoff, int limit) {
        return DELETE_UNDELIVERED_BEFORE
                .parameters()
                .set("cutoff", cutoff)
                .set("limit", limit)
                .execute(pool)
                .map(rows -> rows.rowCount());
    }
}
