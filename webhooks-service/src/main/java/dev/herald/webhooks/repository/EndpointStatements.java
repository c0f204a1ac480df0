package dev.herald.webhooks.repository;

import static dev.herald.common.persistence.SqlParameters.instant;

import dev.herald.common.auth.Mode;
import dev.herald.common.paging.CursorPosition;
import dev.herald.common.persistence.NamedStatement;
import dev.herald.common.wire.WebhookEndpoint;
import dev.herald.webhooks.model.EndpointChanges;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** Endpoints and their secrets, always read within one workspace and mode. */
@ApplicationScoped
public class EndpointStatements {
    private static final String COLUMNS =
            "id, kind, url, description, events, status, disabled_reason, mode, created_at, updated_at, disabled_at";

    private static final NamedStatement INSERT = NamedStatement.of("""
            insert into endpoints (id, workspace_id, mode, kind, url, description, events, status, created_at,
                updated_at)
            values (:id, :workspace_id, :mode, :kind, :url, :description, :events, 'enabled', :now, :now)
            returning""" + " " + COLUMNS);

    private static final NamedStatement FIND = NamedStatement.of(
            "select " + COLUMNS + " from endpoints where id = :id and workspace_id = :workspace_id and mode = :mode");

    private static final NamedStatement FIRST_PAGE = NamedStatement.of(
            "select " + COLUMNS + " from endpoints where workspace_id = :workspace_id and mode = :mode"
                    + " order by created_at desc, id desc limit :limit");

    private static final NamedStatement PAGE_AFTER = NamedStatement.of(
            "select " + COLUMNS + " from endpoints where workspace_id = :workspace_id and mode = :mode"
                    + " and (created_at, id) < (:after_created_at, :after_id)"
                    + " order by created_at desc, id desc limit :limit");

    // An absent field keeps its value: description by a flag (null clears it), events by null (never null when sent).
    private static final NamedStatement UPDATE = NamedStatement.of("""
            update endpoints set
                description = case when :keep_description then description else :description end,
                events = coalesce(:events, events),
                updated_at = :now
            where id = :id and workspace_id = :workspace_id and mode = :mode
            returning""" + " " + COLUMNS);

    private static final NamedStatement DISABLE = NamedStatement.of("""
            update endpoints set status = 'disabled', disabled_reason = 'requested', disabled_at = :now, updated_at = :now
            where id = :id and workspace_id = :workspace_id and mode = :mode and status = 'enabled'
            returning""" + " " + COLUMNS);

    private static final NamedStatement DISABLE_GONE = NamedStatement.of("""
            update endpoints set status = 'disabled', disabled_reason = 'endpoint_gone', disabled_at = :now, updated_at = :now
            where id = any(:endpoint_ids) and status = 'enabled'""");

    private static final NamedStatement LOCK = NamedStatement.of("select " + COLUMNS
            + " from endpoints where id = :id and workspace_id = :workspace_id and mode = :mode for update");

    private static final NamedStatement DELETE_EXPIRED_SECRETS =
            NamedStatement.of("delete from endpoint_secrets where endpoint_id = :endpoint_id and expires_at <= :now");

    private static final NamedStatement EXPIRE_CURRENT_SECRET = NamedStatement.of(
            "update endpoint_secrets set expires_at = :previous_until where endpoint_id = :endpoint_id and expires_at is null");

    private static final NamedStatement INSERT_SECRET = NamedStatement.of(
            "insert into endpoint_secrets (endpoint_id, sealed, created_at) values (:endpoint_id, :sealed, :now)");

    private static final NamedStatement TOUCH =
            NamedStatement.of("update endpoints set updated_at = :now where id = :id returning " + COLUMNS);

    // Attempts in flight (leased) finish as they will; a retry they schedule is failed when it is claimed.
    private static final NamedStatement FAIL_WAITING_DELIVERIES = NamedStatement.of("""
            update deliveries set status = 'failed', last_error = :reason, next_attempt_at = null, due_at = null,
                updated_at = :now
            where endpoint_id = any(:endpoint_ids) and status = 'pending' and lease_token is null""");

    private final Pool pool;

    public EndpointStatements(Pool pool) {
        this.pool = pool;
    }

    /** A new enabled endpoint with its first (sealed) secret, in one transaction. */
    public Uni<WebhookEndpoint> insert(String workspaceId, WebhookEndpoint endpoint, String sealedSecret) {
        return pool.withTransaction(connection -> INSERT.parameters()
                .set("id", endpoint.id())
                .set("workspace_id", workspaceId)
                .set("mode", endpoint.mode().wireName())
                .set("kind", endpoint.kind())
                .set("url", endpoint.url())
                .set("description", endpoint.description())
                .set("events", endpoint.events().toArray(String[]::new))
                .set("now", endpoint.createdAt())
                .execute(connection)
                .flatMap(rows -> insertSecret(connection, endpoint.id(), sealedSecret, endpoint.createdAt())
                        .replaceWith(endpoint(rows.iterator().next()))));
    }

    public Uni<Optional<WebhookEndpoint>> find(String workspaceId, Mode mode, String id) {
        return find(pool, workspaceId, mode, id);
    }

    private static Uni<Optional<WebhookEndpoint>> find(SqlClient client, String workspaceId, Mode mode, String id) {
        return FIND.parameters()
                .set("id", id)
                .set("workspace_id", workspaceId)
                .set("mode", mode.wireName())
                .execute(client)
                .map(EndpointStatements::first);
    }

    /** Applies the sent changes; empty when there is no such endpoint in the tenant. */
    public Uni<Optional<WebhookEndpoint>> update(
            String workspaceId, Mode mode, String id, EndpointChanges changes, Instant now) {
        List<String> events = changes.events().orNull();
        return UPDATE.parameters()
                .set("id", id)
                .set("workspace_id", workspaceId)
                .set("mode", mode.wireName())
                .set("keep_description", changes.description().isAbsent())
                .set("description", changes.description().orNull())
                .set("events", events == null ? null : events.toArray(String[]::new))
                .set("now", now)
                .execute(pool)
                .map(EndpointStatements::first);
    }

    /** Whether the endpoint exists in the tenant (for filters naming it). */
    public Uni<Boolean> exists(String workspaceId, Mode mode, String id) {
        return find(workspaceId, mode, id).map(Optional::isPresent);
    }

    /** One page, newest first, {@code fetchSize} rows at most. */
    public Uni<List<WebhookEndpoint>> listPage(
            String workspaceId, Mode mode, Optional<CursorPosition> after, int fetchSize) {
        NamedStatement.Parameters parameters = (after.isPresent() ? PAGE_AFTER : FIRST_PAGE)
                .parameters()
                .set("workspace_id", workspaceId)
                .set("mode", mode.wireName())
                .set("limit", fetchSize);
        after.ifPresent(position ->
                parameters.set("after_created_at", position.createdAt()).set("after_id", position.id()));
        return parameters.execute(pool).map(EndpointStatements::all);
    }

    /**
     * Disables an enabled endpoint and fails its deliveries that wait for a retry, in one transaction; an
     * endpoint already disabled is answered as it is. Empty when there is no such endpoint in the tenant.
     */
    public Uni<Optional<WebhookEndpoint>> disable(String workspaceId, Mode mode, String id, Instant now) {
        return pool.withTransaction(connection -> DISABLE.parameters()
                .set("id", id)
                .set("workspace_id", workspaceId)
                .set("mode", mode.wireName())
                .set("now", now)
                .execute(connection)
                .flatMap(rows -> {
                    if (rows.rowCount() == 0) {
                        return find(connection, workspaceId, mode, id);
                    }
                    return failWaitingDeliveries(connection, List.of(id), "The endpoint was disabled.", now)
                            .replaceWith(first(rows));
                }));
    }

    /**
     * Marks endpoints whose receiver answered {@code 410 Gone} disabled ({@code endpoint_gone}) and fails their
     * deliveries that wait for a retry, within the caller's transaction.
     */
    public Uni<Void> disableGone(SqlConnection connection, List<String> endpointIds, Instant now) {
        return DISABLE_GONE
                .parameters()
                .set("endpoint_ids", endpointIds.toArray(String[]::new))
                .set("now", now)
                .execute(connection)
                .flatMap(ignored -> failWaitingDeliveries(
                        connection, endpointIds, "The endpoint answered 410 Gone and was disabled.", now));
    }

    /**
     * Makes the endpoint's current secret a previous one, valid until {@code previousUntil}, and stores the new
     * current secret, under the endpoint's row lock. Secrets that have expired are deleted. Empty when there is no
     * such endpoint in the tenant.
     */
    public Uni<Optional<WebhookEndpoint>> rotateSecret(
            String workspaceId, Mode mode, String id, String sealedSecret, Instant now, Instant previousUntil) {
        return pool.withTransaction(connection -> LOCK.parameters()
                .set("id", id)
                .set("workspace_id", workspaceId)
                .set("mode", mode.wireName())
                .execute(connection)
                .flatMap(rows -> {
                    Optional<WebhookEndpoint> found = first(rows);
                    if (found.isEmpty()) {
                        return Uni.createFrom().item(found);
                    }
                    return DELETE_EXPIRED_SECRETS
                            .parameters()
                            .set("endpoint_id", id)
                            .set("now", now)
                            .execute(connection)
                            .flatMap(ignored -> EXPIRE_CURRENT_SECRET
                                    .parameters()
                                    .set("endpoint_id", id)
                                    .set("previous_until", previousUntil)
                                    .execute(connection))
                            .flatMap(ignored -> insertSecret(connection, id, sealedSecret, now))
                            .flatMap(ignored -> TOUCH.parameters()
                                    .set("id", id)
                                    .set("now", now)
                                    .execute(connection))
                            .map(EndpointStatements::first);
                }));
    }

    private static Uni<Void> insertSecret(SqlConnection connection, String endpointId, String sealed, Instant now) {
        return INSERT_SECRET
                .parameters()
                .set("endpoint_id", endpointId)
                .set("sealed", sealed)
                .set("now", now)
                .execute(connection)
                .replaceWithVoid();
    }

    private static Uni<Void> failWaitingDeliveries(
            SqlConnection connection, List<String> endpointIds, String reason, Instant now) {
        return FAIL_WAITING_DELIVERIES
                .parameters()
                .set("endpoint_ids", endpointIds.toArray(String[]::new))
                .set("reason", reason)
                .set("now", now)
                .execute(connection)
                .replaceWithVoid();
    }

    private static Optional<WebhookEndpoint> first(RowSet<Row> rows) {
        return rows.rowCount() == 0
                ? Optional.empty()
                : Optional.of(endpoint(rows.iterator().next()));
    }

    private static List<WebhookEndpoint> all(RowSet<Row> rows) {
        List<WebhookEndpoint> endpoints = new ArrayList<>(rows.rowCount());
        rows.forEach(row -> endpoints.add(endpoint(row)));
        return endpoints;
    }

    static WebhookEndpoint endpoint(Row row) {
        return new WebhookEndpoint(
                row.getString("id"),
                row.getString("kind"),
                row.getString("url"),
                row.getString("description"),
                Arrays.asList(row.getArrayOfStrings("events")),
                row.getString("status"),
                row.getString("disabled_reason"),
                Mode.fromWire(row.getString("mode")).orElseThrow(),
                instant(row, "created_at"),
                instant(row, "updated_at"),
                instant(row, "disabled_at"),
                null);
    }
}
