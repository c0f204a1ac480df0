package dev.herald.webhooks.repository;

import static dev.herald.common.persistence.SqlParameters.instant;

import dev.herald.common.auth.Mode;
import dev.herald.common.paging.CursorPosition;
import dev.herald.common.persistence.SqlParameters;
import dev.herald.webhooks.model.WebhookEndpoint;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** Endpoints and their secrets, always read within one workspace and mode. */
@ApplicationScoped
public class EndpointRepository {
    private static final String COLUMNS =
            "id, url, description, events, status, disabled_reason, mode, created_at, updated_at, disabled_at";

    private final Pool pool;

    public EndpointRepository(Pool pool) {
        this.pool = pool;
    }

    /** A new enabled endpoint with its first (sealed) secret, in one transaction. */
    public Uni<WebhookEndpoint> insert(String workspaceId, WebhookEndpoint endpoint, String sealedSecret) {
        return pool.withTransaction(connection -> connection
                .preparedQuery("""
                        insert into endpoints (id, workspace_id, mode, url, description, events, status, created_at, updated_at)
                        values ($1, $2, $3, $4, $5, $6, 'enabled', $7, $7)
                        returning""" + " " + COLUMNS)
                .execute(SqlParameters.of(
                        endpoint.id(),
                        workspaceId,
                        endpoint.mode().wireName(),
                        endpoint.url(),
                        endpoint.description(),
                        endpoint.events().toArray(String[]::new),
                        endpoint.createdAt()))
                .flatMap(rows -> insertSecret(connection, endpoint.id(), sealedSecret, endpoint.createdAt())
                        .replaceWith(endpoint(rows.iterator().next()))));
    }

    public Uni<Optional<WebhookEndpoint>> find(String workspaceId, Mode mode, String id) {
        return pool.preparedQuery(
                        "select " + COLUMNS + " from endpoints where id = $1 and workspace_id = $2 and mode = $3")
                .execute(SqlParameters.of(id, workspaceId, mode.wireName()))
                .map(EndpointRepository::first);
    }

    /** Whether the endpoint exists in the tenant (for filters naming it). */
    public Uni<Boolean> exists(String workspaceId, Mode mode, String id) {
        return find(workspaceId, mode, id).map(Optional::isPresent);
    }

    /** One page, newest first, {@code fetchSize} rows at most. */
    public Uni<List<WebhookEndpoint>> listPage(
            String workspaceId, Mode mode, Optional<CursorPosition> after, int fetchSize) {
        String keyset = after.isPresent() ? " and (created_at, id) < ($4, $5)" : "";
        return pool.preparedQuery("select " + COLUMNS + " from endpoints where workspace_id = $1 and mode = $2" + keyset
                        + " order by created_at desc, id desc limit $3")
                .execute(
                        after.isPresent()
                                ? SqlParameters.of(
                                        workspaceId,
                                        mode.wireName(),
                                        fetchSize,
                                        after.get().createdAt(),
                                        after.get().id())
                                : SqlParameters.of(workspaceId, mode.wireName(), fetchSize))
                .map(EndpointRepository::all);
    }

    /**
     * Disables an enabled endpoint and fails its deliveries that wait for a retry, in one transaction; an
     * endpoint already disabled is answered as it is. Empty when there is no such endpoint in the tenant.
     */
    public Uni<Optional<WebhookEndpoint>> disable(String workspaceId, Mode mode, String id, Instant now) {
        return pool.withTransaction(connection -> connection
                .preparedQuery("""
                        update endpoints set status = 'disabled', disabled_reason = 'requested', disabled_at = $4, updated_at = $4
                        where id = $1 and workspace_id = $2 and mode = $3 and status = 'enabled'
                        returning""" + " " + COLUMNS)
                .execute(SqlParameters.of(id, workspaceId, mode.wireName(), now))
                .flatMap(rows -> {
                    if (rows.rowCount() == 0) {
                        return connection
                                .preparedQuery("select " + COLUMNS
                                        + " from endpoints where id = $1 and workspace_id = $2 and mode = $3")
                                .execute(SqlParameters.of(id, workspaceId, mode.wireName()))
                                .map(EndpointRepository::first);
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
        return connection
                .preparedQuery("""
                        update endpoints set status = 'disabled', disabled_reason = 'endpoint_gone', disabled_at = $2, updated_at = $2
                        where id = any($1) and status = 'enabled'""")
                .execute(SqlParameters.of(endpointIds.toArray(String[]::new), now))
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
        return pool.withTransaction(connection -> connection
                .preparedQuery("select " + COLUMNS
                        + " from endpoints where id = $1 and workspace_id = $2 and mode = $3 for update")
                .execute(SqlParameters.of(id, workspaceId, mode.wireName()))
                .flatMap(rows -> {
                    Optional<WebhookEndpoint> found = first(rows);
                    if (found.isEmpty()) {
                        return Uni.createFrom().item(found);
                    }
                    return connection
                            .preparedQuery("delete from endpoint_secrets where endpoint_id = $1 and expires_at <= $2")
                            .execute(SqlParameters.of(id, now))
                            .flatMap(ignored -> connection
                                    .preparedQuery(
                                            "update endpoint_secrets set expires_at = $2 where endpoint_id = $1 and expires_at is null")
                                    .execute(SqlParameters.of(id, previousUntil)))
                            .flatMap(ignored -> insertSecret(connection, id, sealedSecret, now))
                            .flatMap(ignored -> connection
                                    .preparedQuery(
                                            "update endpoints set updated_at = $2 where id = $1 returning " + COLUMNS)
                                    .execute(SqlParameters.of(id, now)))
                            .map(EndpointRepository::first);
                }));
    }

    private static Uni<Void> insertSecret(SqlConnection connection, String endpointId, String sealed, Instant now) {
        return connection
                .preparedQuery("insert into endpoint_secrets (endpoint_id, sealed, created_at) values ($1, $2, $3)")
                .execute(SqlParameters.of(endpointId, sealed, now))
                .replaceWithVoid();
    }

    private static Uni<Void> failWaitingDeliveries(
            SqlConnection connection, List<String> endpointIds, String reason, Instant now) {
        // Attempts in flight (leased) finish as they will; a retry they schedule is failed when it is claimed.
        return connection
                .preparedQuery("""
                        update deliveries set status = 'failed', last_error = $2, next_attempt_at = null, due_at = null,
                            updated_at = $3
                        where endpoint_id = any($1) and status = 'pending' and lease_token is null""")
                .execute(SqlParameters.of(endpointIds.toArray(String[]::new), reason, now))
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
