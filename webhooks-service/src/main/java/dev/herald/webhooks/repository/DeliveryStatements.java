package dev.herald.webhooks.repository;

import static dev.herald.common.persistence.SqlParameters.instant;

import dev.herald.common.auth.Mode;
import dev.herald.common.paging.CursorPosition;
import dev.herald.common.persistence.FilteredStatement;
import dev.herald.common.persistence.NamedStatement;
import dev.herald.common.wire.WebhookDelivery;
import dev.herald.webhooks.model.DeliveryFilters;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The {@code deliveries} table as the API and retention see it: reads, a manual retry, and the purge of final rows.
 * The sender's claims and outcomes are {@link DeliveryAttemptStatements}.
 */
@ApplicationScoped
public class DeliveryStatements {
    static final String COLUMNS = "id, event_id, event_type, endpoint_id, status, attempts, last_response_status, "
            + "last_error, last_response_body, next_attempt_at, created_at, updated_at, delivered_at";

    private static final NamedStatement FIND = NamedStatement.of(
            "select " + COLUMNS + " from deliveries where id = :id and workspace_id = :workspace_id and mode = :mode");

    private static final FilteredStatement PAGE = FilteredStatement.of(
            "select " + COLUMNS + " from deliveries where workspace_id = :workspace_id and mode = :mode",
            " order by created_at desc, id desc limit :limit",
            " and endpoint_id = :endpoint_id",
            " and event_id = :event_id",
            " and status = :status",
            " and (created_at, id) < (:after_created_at, :after_id)");

    // An endpoint's events feed: the events of its deliveries, newest first (deliveries_of_endpoint orders them).
    private static final FilteredStatement EVENTS_OF_ENDPOINT = FilteredStatement.of(
            "select d.id, d.created_at, e.payload from deliveries d join events e on e.id = d.event_id"
                    + " where d.endpoint_id = :endpoint_id and d.workspace_id = :workspace_id and d.mode = :mode",
            " order by d.created_at desc, d.id desc limit :limit",
            " and (d.created_at, d.id) < (:after_created_at, :after_id)");

    private static final NamedStatement RETRY = NamedStatement.of("""
            update deliveries d set status = 'pending', final_attempt = true, next_attempt_at = :now, due_at = :now,
                updated_at = :now
            from endpoints w
            where d.id = :id and d.workspace_id = :workspace_id and d.mode = :mode and d.status = 'failed'
                and w.id = d.endpoint_id and w.status = 'enabled'
            returning""" + " " + qualified("d"));

    private static final NamedStatement WITH_ENDPOINT_STATUS = NamedStatement.of(
            "select " + qualified("d") + ", w.status as endpoint_status from deliveries d "
                    + "join endpoints w on w.id = d.endpoint_id where d.id = :id and d.workspace_id = :workspace_id and d.mode = :mode");

    private static final NamedStatement DELETE_FINAL_BEFORE = NamedStatement.of("""
            delete from deliveries where id in (
                select id from deliveries where status <> 'pending' and updated_at < :cutoff
                order by updated_at limit :limit for update skip locked)""");

    private final Pool pool;

    public DeliveryStatements(Pool pool) {
        this.pool = pool;
    }

    public Uni<Optional<WebhookDelivery>> find(String workspaceId, Mode mode, String id) {
        return FIND.parameters()
                .set("id", id)
                .set("workspace_id", workspaceId)
                .set("mode", mode.wireName())
                .execute(pool)
                .map(rows -> rows.rowCount() == 0
                        ? Optional.empty()
                        : Optional.of(delivery(rows.iterator().next())));
    }

    /** One page, newest first, {@code fetchSize} rows at most. */
    public Uni<List<WebhookDelivery>> listPage(
            String workspaceId, Mode mode, DeliveryFilters filters, Optional<CursorPosition> after, int fetchSize) {
        NamedStatement.Parameters parameters = PAGE.with(
                        filters.endpointId() != null,
                        filters.eventId() != null,
                        filters.status() != null,
                        after.isPresent())
                .parameters()
                .set("workspace_id", workspaceId)
                .set("mode", mode.wireName())
                .set("limit", fetchSize);
        if (filters.endpointId() != null) {
            parameters.set("endpoint_id", filters.endpointId());
        }
        if (filters.eventId() != null) {
            parameters.set("event_id", filters.eventId());
        }
        if (filters.status() != null) {
            parameters.set("status", filters.status());
        }
        after.ifPresent(position ->
                parameters.set("after_created_at", position.createdAt()).set("after_id", position.id()));
        return parameters.execute(pool).map(DeliveryStatements::all);
    }

    /** One entry of an endpoint's events feed: its delivery's place in the feed and the event's stored body. */
    public record FeedEntry(String deliveryId, Instant createdAt, String payload) {}

    /** One page of the events delivered to an endpoint, newest first, {@code fetchSize} rows at most. */
    public Uni<List<FeedEntry>> eventsOfEndpoint(
            String workspaceId, Mode mode, String endpointId, Optional<CursorPosition> after, int fetchSize) {
        NamedStatement.Parameters parameters = EVENTS_OF_ENDPOINT
                .with(after.isPresent())
                .parameters()
                .set("endpoint_id", endpointId)
                .set("workspace_id", workspaceId)
                .set("mode", mode.wireName())
                .set("limit", fetchSize);
        after.ifPresent(position ->
                parameters.set("after_created_at", position.createdAt()).set("after_id", position.id()));
        return parameters.execute(pool).map(rows -> {
            List<FeedEntry> entries = new ArrayList<>(rows.rowCount());
            rows.forEach(row -> entries.add(
                    new FeedEntry(row.getString("id"), instant(row, "created_at"), row.getString("payload"))));
            return entries;
        });
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
        return RETRY.parameters()
                .set("id", id)
                .set("workspace_id", workspaceId)
                .set("mode", mode.wireName())
                .set("now", now)
                .execute(pool)
                .flatMap(rows -> {
                    if (rows.rowCount() > 0) {
                        return Uni.createFrom()
                                .item(new RetryResult(delivery(rows.iterator().next()), null));
                    }
                    return WITH_ENDPOINT_STATUS
                            .parameters()
                            .set("id", id)
                            .set("workspace_id", workspaceId)
                            .set("mode", mode.wireName())
                            .execute(pool)
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
     * Deletes up to {@code limit} final deliveries that last changed before {@code cutoff}, oldest first; how many.
     * Pending ones are never touched, however old. {@code SKIP LOCKED}: replicas purging at once split the work, and a
     * row a sender or a manual retry holds waits for the next run.
     */
    public Uni<Integer> deleteFinalBefore(Instant cutoff, int limit) {
        return DELETE_FINAL_BEFORE
                .parameters()
                .set("cutoff", cutoff)
                .set("limit", limit)
                .execute(pool)
                .map(rows -> rows.rowCount());
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
}
