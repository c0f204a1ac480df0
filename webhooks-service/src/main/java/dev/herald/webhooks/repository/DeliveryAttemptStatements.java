package dev.herald.webhooks.repository;

import dev.herald.common.persistence.NamedStatement;
import dev.herald.webhooks.model.AttemptOutcome;
import dev.herald.webhooks.model.ClaimedDelivery;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * The sender's side of the {@code deliveries} table: claiming due attempts and writing their outcomes. Every write
 * about an attempt names the attempt's lease token: a sender whose lease lapsed (the row was claimed again since)
 * changes nothing, so each attempt's outcome is written once.
 */
@ApplicationScoped
public class DeliveryAttemptStatements {
    private static final NamedStatement CLAIM_DUE = NamedStatement.of("""
            with busy as (
                select endpoint_id, count(*) as leased from deliveries
                where lease_token is not null and lease_until > :now
                group by endpoint_id),
            due as (
                select d.id, d.endpoint_id, d.due_at from deliveries d
                where d.status = 'pending' and d.due_at <= :now
                    and not exists (select 1 from busy b where b.endpoint_id = d.endpoint_id and b.leased >= :per_endpoint)
                order by d.due_at
                limit :limit * 4),
            ranked as (
                select id, endpoint_id, due_at,
                    row_number() over (partition by endpoint_id order by due_at, id) as place
                from due),
            chosen as (
                select r.id from ranked r left join busy b on b.endpoint_id = r.endpoint_id
                where r.place + coalesce(b.leased, 0) <= :per_endpoint
                order by r.due_at
                limit :limit),
            locked as (
                select d.id from deliveries d
                where d.id in (select id from chosen) and d.status = 'pending' and d.due_at <= :now
                for update of d skip locked)
            update deliveries d set lease_token = gen_random_uuid(), lease_until = :lease_until, due_at = :lease_until,
                attempts = d.attempts + 1, updated_at = :now
            from locked, events e, endpoints w
            where d.id = locked.id and e.id = d.event_id and w.id = d.endpoint_id
            returning d.id, d.event_id, d.event_type, d.endpoint_id, d.attempts, d.final_attempt, d.lease_token,
                e.payload, e.trace_parent, w.url, w.status as endpoint_status,
                array(select s.sealed from endpoint_secrets s
                      where s.endpoint_id = d.endpoint_id and (s.expires_at is null or s.expires_at > :now)
                      order by s.expires_at desc nulls first, s.id desc) as secrets""");

    private static final NamedStatement RECORD_OUTCOMES = NamedStatement.of("""
            update deliveries d set status = o.status, next_attempt_at = o.next_attempt_at, due_at = o.next_attempt_at,
                last_response_status = o.response_status, last_error = o.error, last_response_body = o.body,
                delivered_at = case when o.status = 'succeeded' then o.at end, updated_at = o.at,
                lease_token = null, lease_until = null, attempts = d.attempts - case when o.attempted then 0 else 1 end
            from unnest(:ids::text[], :tokens::uuid[], :statuses::text[], :next_attempts::timestamptz[], :response_statuses::int4[], :errors::text[], :bodies::text[],
                    :times::timestamptz[], :attempted::bool[])
                as o(id, token, status, next_attempt_at, response_status, error, body, at, attempted)
            where d.id = o.id and d.lease_token = o.token
            returning d.id""");

    private final Pool pool;
    private final EndpointStatements endpoints;

    public DeliveryAttemptStatements(Pool pool, EndpointStatements endpoints) {
        this.pool = pool;
        this.endpoints = endpoints;
    }

    /**
     * Claims up to {@code limit} due deliveries for this sender: waiting ones whose time has come, and ones whose
     * lease lapsed (their sender died mid-attempt). Each claim counts an attempt and leases the row until
     * {@code leaseUntil}. No endpoint gets more than {@code perEndpoint} attempts in flight (counting the leases
     * other senders hold): endpoints at their limit are skipped before the batch is cut, so one endpoint's
     * backlog never crowds out the others. Rows another sender is claiming are skipped, not waited for.
     */
    public Uni<List<ClaimedDelivery>> claimDue(Instant now, Instant leaseUntil, int limit, int perEndpoint) {
        return CLAIM_DUE
                .parameters()
                .set("now", now)
                .set("limit", limit)
                .set("lease_until", leaseUntil)
                .set("per_endpoint", perEndpoint)
                .execute(pool)
                .map(rows -> {
                    List<ClaimedDelivery> claimed = new ArrayList<>(rows.rowCount());
                    for (Row row : rows) {
                        claimed.add(new ClaimedDelivery(
                                row.getString("id"),
                                row.getString("event_id"),
                                row.getString("event_type"),
                                row.getString("endpoint_id"),
                                row.getInteger("attempts"),
                                row.getBoolean("final_attempt"),
                                row.getUUID("lease_token"),
                                row.getString("payload"),
                                row.getString("url"),
                                row.getString("endpoint_status"),
                                Arrays.asList(row.getArrayOfStrings("secrets")),
                                row.getString("trace_parent")));
                    }
                    return claimed;
                });
    }

    /**
     * Writes the outcomes of many attempts in one transaction: each only while its attempt still holds the lease.
     * Endpoints that answered 410 Gone are disabled in the same transaction. Answers the ids written.
     */
    public Uni<Set<String>> recordOutcomes(List<AttemptOutcome> outcomes) {
        int count = outcomes.size();
        String[] ids = new String[count];
        UUID[] tokens = new UUID[count];
        String[] statuses = new String[count];
        Instant[] nextAttempts = new Instant[count];
        Integer[] responseStatuses = new Integer[count];
        String[] errors = new String[count];
        String[] bodies = new String[count];
        Instant[] times = new Instant[count];
        Boolean[] attempted = new Boolean[count];
        List<String> gone = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            AttemptOutcome outcome = outcomes.get(i);
            ids[i] = outcome.delivery().id();
            tokens[i] = outcome.delivery().leaseToken();
            statuses[i] = outcome.status();
            nextAttempts[i] = outcome.nextAttemptAt();
            responseStatuses[i] = outcome.responseStatus();
            errors[i] = outcome.error();
            bodies[i] = outcome.responseBody();
            times[i] = outcome.at();
            attempted[i] = outcome.attempted();
            if (outcome.endpointGone() && !gone.contains(outcome.delivery().endpointId())) {
                gone.add(outcome.delivery().endpointId());
            }
        }
        NamedStatement.Parameters parameters = RECORD_OUTCOMES
                .parameters()
                .set("ids", ids)
                .set("tokens", tokens)
                .set("statuses", statuses)
                .set("next_attempts", nextAttempts)
                .set("response_statuses", responseStatuses)
                .set("errors", errors)
                .set("bodies", bodies)
                .set("times", times)
                .set("attempted", attempted);
        return pool.withTransaction(connection -> parameters.execute(connection).flatMap(rows -> {
            Set<String> written = new HashSet<>();
            rows.forEach(row -> written.add(row.getString("id")));
            if (gone.isEmpty()) {
                return Uni.createFrom().item(written);
            }
            return endpoints.disableGone(connection, gone, times[0]).replaceWith(written);
        }));
    }
}
