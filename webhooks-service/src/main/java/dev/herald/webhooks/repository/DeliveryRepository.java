package dev.herald.webhooks.repository;

import static dev.herald.common.persistence.SqlParameters.instant;

import dev.herald.common.auth.Mode;
import dev.herald.common.paging.CursorPosition;
import dev.herald.common.persistence.SqlParameters;
import dev.herald.webhooks.model.AttemptOutcome;
import dev.herald.webhooks.model.ClaimedDelivery;
import dev.herald.webhooks.model.DeliveryFilters;
import dev.herald.webhooks.model.WebhookDelivery;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The {@code deliveries} table. Every write about an attempt names the attempt's lease token: a sender whose
 * lease lapsed (the row was claimed again since) changes nothing, so each attempt's outcome is written once.
 */
@ApplicationScoped
public class DeliveryRepository {
    private static final String COLUMNS =
            "id, event_id, event_type, endpoint_id, status, attempts, last_response_status, "
                    + "last_error, last_response_body, next_attempt_at, created_at, updated_at, delivered_at";

    private final Pool pool;
    private final EndpointRepository endpoints;

    public DeliveryRepository(Pool pool, EndpointRepository endpoints) {
        this.pool = pool;
        this.endpoints = endpoints;
    }

    public Uni<Optional<WebhookDelivery>> find(String workspaceId, Mode mode, String id) {
        return pool.preparedQuery(
                        "select " + COLUMNS + " from deliveries where id = $1 and workspace_id = $2 and mode = $3")
                .execute(SqlParameters.of(id, workspaceId, mode.wireName()))
                .map(rows -> rows.rowCount() == 0
                        ? Optional.empty()
                        : Optional.of(delivery(rows.iterator().next())));
    }

    /** One page, newest first, {@code fetchSize} rows at most. */
    public Uni<List<WebhookDelivery>> listPage(
            String workspaceId, Mode mode, DeliveryFilters filters, Optional<CursorPosition> after, int fetchSize) {
        StringBuilder sql =
                new StringBuilder("select " + COLUMNS + " from deliveries where workspace_id = $1 and mode = $2");
        List<Object> parameters = new ArrayList<>(List.of(workspaceId, mode.wireName(), fetchSize));
        if (filters.endpointId() != null) {
            parameters.add(filters.endpointId());
            sql.append(" and endpoint_id = $").append(parameters.size());
        }
        if (filters.eventId() != null) {
            parameters.add(filters.eventId());
            sql.append(" and event_id = $").append(parameters.size());
        }
        if (filters.status() != null) {
            parameters.add(filters.status());
            sql.append(" and status = $").append(parameters.size());
        }
        if (after.isPresent()) {
            parameters.add(after.get().createdAt());
            parameters.add(after.get().id());
            sql.append(" and (created_at, id) < ($")
                    .append(parameters.size() - 1)
                    .append(", $")
                    .append(parameters.size())
                    .append(")");
        }
        sql.append(" order by created_at desc, id desc limit $3");
        return pool.preparedQuery(sql.toString())
                .execute(SqlParameters.of(parameters.toArray()))
                .map(DeliveryRepository::all);
    }

    /** Why a delivery could not be retried. */
    public enum RetryRefusal {
        NOT_FOUND,
        NOT_FAILED,
        ENDPOINT_DISABLED
    }

    /** The delivery made due now for one last attempt, or why it was not. */
    public record RetryResult(WebhookDelivery delivery, RetryRefusal refusal) {}

    /**
     * Makes a failed delivery of an enabled endpoint due now, for one more attempt (not a new schedule: if it
     * fails, it is failed again).
     */
    public Uni<RetryResult> retry(String workspaceId, Mode mode, String id, Instant now) {
        return pool.preparedQuery("""
                        update deliveries d set status = 'pending', final_attempt = true, next_attempt_at = $4, due_at = $4,
                            updated_at = $4
                        from endpoints w
                        where d.id = $1 and d.workspace_id = $2 and d.mode = $3 and d.status = 'failed'
                            and w.id = d.endpoint_id and w.status = 'enabled'
                        returning""" + " " + qualified("d"))
                .execute(SqlParameters.of(id, workspaceId, mode.wireName(), now))
                .flatMap(rows -> {
                    if (rows.rowCount() > 0) {
                        return Uni.createFrom()
                                .item(new RetryResult(delivery(rows.iterator().next()), null));
                    }
                    return pool.preparedQuery(
                                    "select " + qualified("d") + ", w.status as endpoint_status from deliveries d "
                                            + "join endpoints w on w.id = d.endpoint_id where d.id = $1 and d.workspace_id = $2 and d.mode = $3")
                            .execute(SqlParameters.of(id, workspaceId, mode.wireName()))
                            .map(found -> {
                                if (found.rowCount() == 0) {
                                    return new RetryResult(null, RetryRefusal.NOT_FOUND);
                                }
                                Row row = found.iterator().next();
                                WebhookDelivery delivery = delivery(row);
                                return new RetryResult(
                                        delivery,
                                        WebhookDelivery.FAILED.equals(delivery.status())
                                                ? RetryRefusal.ENDPOINT_DISABLED
                                                : RetryRefusal.NOT_FAILED);
                            });
                });
    }

    /**
     * Claims up to {@code limit} due deliveries for this sender: waiting ones whose time has come, and ones whose
     * lease lapsed (their sender died mid-attempt). Each claim counts an attempt and leases the row until
     * {@code leaseUntil}. No endpoint gets more than {@code perEndpoint} attempts in flight (counting the leases
     * other senders hold): endpoints at their limit are skipped before the batch is cut, so one endpoint's
     * backlog never crowds out the others. Rows another sender is claiming are skipped, not waited for.
     */
    public Uni<List<ClaimedDelivery>> claimDue(Instant now, Instant leaseUntil, int limit, int perEndpoint) {
        return pool.preparedQuery("""
                        with busy as (
                            select endpoint_id, count(*) as leased from deliveries
                            where lease_token is not null and lease_until > $1
                            group by endpoint_id),
                        due as (
                            select d.id, d.endpoint_id, d.due_at from deliveries d
                            where d.status = 'pending' and d.due_at <= $1
                                and not exists (select 1 from busy b where b.endpoint_id = d.endpoint_id and b.leased >= $4)
                            order by d.due_at
                            limit $2 * 4),
                        ranked as (
                            select id, endpoint_id, due_at,
                                row_number() over (partition by endpoint_id order by due_at, id) as place
                            from due),
                        chosen as (
                            select r.id from ranked r left join busy b on b.endpoint_id = r.endpoint_id
                            where r.place + coalesce(b.leased, 0) <= $4
                            order by r.due_at
                            limit $2),
                        locked as (
                            select d.id from deliveries d
                            where d.id in (select id from chosen) and d.status = 'pending' and d.due_at <= $1
                            for update of d skip locked)
                        update deliveries d set lease_token = gen_random_uuid(), lease_until = $3, due_at = $3,
                            attempts = d.attempts + 1, updated_at = $1
                        from locked, events e, endpoints w
                        where d.id = locked.id and e.id = d.event_id and w.id = d.endpoint_id
                        returning d.id, d.event_id, d.event_type, d.endpoint_id, d.attempts, d.final_attempt, d.lease_token,
                            e.payload, e.trace_parent, w.url, w.status as endpoint_status,
                            array(select s.sealed from endpoint_secrets s
                                  where s.endpoint_id = d.endpoint_id and (s.expires_at is null or s.expires_at > $1)
                                  order by s.expires_at desc nulls first, s.id desc) as secrets""")
                .execute(SqlParameters.of(now, limit, leaseUntil, perEndpoint))
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
        Tuple parameters = Tuple.tuple()
                .addArrayOfString(ids)
                .addArrayOfUUID(tokens)
                .addArrayOfString(statuses)
                .addArrayOfOffsetDateTime(SqlParameters.offsets(nextAttempts))
                .addArrayOfInteger(responseStatuses)
                .addArrayOfString(errors)
                .addArrayOfString(bodies)
                .addArrayOfOffsetDateTime(SqlParameters.offsets(times))
                .addArrayOfBoolean(attempted);
        return pool.withTransaction(connection -> connection
                .preparedQuery("""
                        update deliveries d set status = o.status, next_attempt_at = o.next_attempt_at, due_at = o.next_attempt_at,
                            last_response_status = o.response_status, last_error = o.error, last_response_body = o.body,
                            delivered_at = case when o.status = 'succeeded' then o.at end, updated_at = o.at,
                            lease_token = null, lease_until = null, attempts = d.attempts - case when o.attempted then 0 else 1 end
                        from unnest($1::text[], $2::uuid[], $3::text[], $4::timestamptz[], $5::int4[], $6::text[], $7::text[],
                                $8::timestamptz[], $9::bool[])
                            as o(id, token, status, next_attempt_at, response_status, error, body, at, attempted)
                        where d.id = o.id and d.lease_token = o.token
                        returning d.id""")
                .execute(parameters)
                .flatMap(rows -> {
                    Set<String> written = new HashSet<>();
                    rows.forEach(row -> written.add(row.getString("id")));
                    if (gone.isEmpty()) {
                        return Uni.createFrom().item(written);
                    }
                    return endpoints.disableGone(connection, gone, times[0]).replaceWith(written);
                }));
    }

    private static String qualified(String alias) {
        return Arrays.stream(COLUMNS.split(", "))
                .map(column -> alias + "." + column)
                .reduce((a, b) -> a + ", " + b)
                .orElseThrow();
    }

    private static List<WebhookDelivery> all(RowSet<Row> rows) {
        List<WebhookDelivery> deliveries = new ArrayList<>(rows.rowCount());
        rows.forEach(row -> deliveries.add(delivery(row)));
        return deliveries;
    }

    static WebhookDelivery delivery(Row row) {
        return new WebhookDelivery(
                row.getString("id"),
                row.getString("event_id"),
                row.getString("event_type"),
                row.getString("endpoint_id"),
                row.getString("status"),
                row.getInteger("attempts"),
                row.getInteger("last_response_status"),
                row.getString("last_error"),
                row.getString("last_response_body"),
                instant(row, "next_attempt_at"),
                instant(row, "created_at"),
                instant(row, "updated_at"),
                instant(row, "delivered_at"));
    }

    /**
     * Deletes up to {@code limit} final deliveries that last changed before {@code cutoff}, oldest first; how many.
     * Pending ones are never touched, however old. {@code SKIP LOCKED}: replicas purging at once split the work, and a
     * row a sender or a manual retry holds waits for the next run.
     */
    public Uni<Integer> deleteFinalBefore(Instant cutoff, int limit) {
        return pool.preparedQuery("""
                        delete from deliveries where id in (
                            select id from deliveries where status <> 'pending' and updated_at < $1
                            order by updated_at limit $2 for update skip locked)""").execute(SqlParameters.of(cutoff, limit)).map(rows -> rows.rowCount());
    }
}
