package dev.herald.gateway.repository;

import dev.herald.common.auth.Mode;
import dev.herald.common.paging.CursorPosition;
import dev.herald.common.persistence.FilteredStatement;
import dev.herald.common.persistence.NamedStatement;
import dev.herald.common.wire.RequestLog;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** Request log rows: written in batches, read newest first within one workspace and mode. */
@ApplicationScoped
public class RequestLogStatements {
    // One statement for the whole batch: a row per request costs PostgreSQL far less than a statement per row.
    private static final NamedStatement INSERT_ALL = NamedStatement.of("""
            insert into request_logs (id, workspace_id, mode, key_id, method, path, status, duration_ms, created_at)
            select * from unnest(:ids::text[], :workspace_ids::text[], :modes::text[], :key_ids::text[], :methods::text[], :paths::text[],
                                 :statuses::integer[], :durations::integer[], :created_at::timestamptz[])
            on conflict (id) do nothing""");

    private static final FilteredStatement PAGE = FilteredStatement.of(
            """
            select id, method, path, status, duration_ms, key_id, mode, created_at from request_logs
            where workspace_id = :workspace_id and mode = :mode""",
            " order by created_at desc, id desc limit :limit",
            " and status = :status",
            " and method = :method",
            // starts_with: a plain prefix, no pattern characters to escape.
            " and starts_with(path, :path_prefix)",
            " and id = :request_id",
            " and key_id = :key_id",
            " and (created_at < :after_created_at or (created_at = :after_created_at and id < :after_id))");

    private static final NamedStatement LAST_USED = NamedStatement.of("""
            select key_id, max(created_at) as last_used from request_logs
            where workspace_id = :workspace_id and mode = :mode group by key_id""");

    // Days in UTC, as usage periods are; the tenant index (workspace_id, mode, created_at) bounds the scan to the
    // period.
    private static final NamedStatement PER_DAY = NamedStatement.of("""
            select (created_at at time zone 'UTC')::date as day, count(*) as requests from request_logs
            where workspace_id = :workspace_id and mode = :mode and created_at >= :since
            group by day order by day""");

    private static final NamedStatement DELETE_OLDER_THAN =
            NamedStatement.of("delete from request_logs where created_at < :before");

    private final Pool pool;

    public RequestLogStatements(Pool pool) {
        this.pool = pool;
    }

    /** A logged request, with the tenant it belongs to. */
    public record Entry(String workspaceId, RequestLog log) {}

    public Uni<Void> insertAll(List<Entry> entries) {
        if (entries.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        int size = entries.size();
        String[] ids = new String[size];
        String[] workspaces = new String[size];
        String[] modes = new String[size];
        String[] keys = new String[size];
        String[] methods = new String[size];
        String[] paths = new String[size];
        Integer[] statuses = new Integer[size];
        Integer[] durations = new Integer[size];
        OffsetDateTime[] createdAt = new OffsetDateTime[size];
        for (int i = 0; i < size; i++) {
            RequestLog log = entries.get(i).log();
            ids[i] = log.id();
            workspaces[i] = entries.get(i).workspaceId();
            modes[i] = log.mode().wireName();
            keys[i] = log.keyId();
            methods[i] = log.method();
            paths[i] = log.path();
            statuses[i] = log.status();
            durations[i] = log.durationMs();
            createdAt[i] = log.createdAt().atOffset(ZoneOffset.UTC);
        }
        return INSERT_ALL
                .parameters()
                .set("ids", ids)
                .set("workspace_ids", workspaces)
                .set("modes", modes)
                .set("key_ids", keys)
                .set("methods", methods)
                .set("paths", paths)
                .set("statuses", statuses)
                .set("durations", durations)
                .set("created_at", createdAt)
                .execute(pool)
                .replaceWithVoid();
    }

    /** The filters of {@code GET /logs}; null means not filtered. */
    public record Filters(Integer status, String method, String pathPrefix, String requestId, String keyId) {}

    public Uni<List<RequestLog>> listPage(
            String workspaceId, Mode mode, Filters filters, Optional<CursorPosition> after, int fetchSize) {
        NamedStatement.Parameters parameters = PAGE.with(
                        filters.status() != null,
                        filters.method() != null,
                        filters.pathPrefix() != null,
                        filters.requestId() != null,
                        filters.keyId() != null,
                        after.isPresent())
                .parameters()
                .set("workspace_id", workspaceId)
                .set("mode", mode.wireName())
                .set("limit", fetchSize);
        if (filters.status() != null) {
            parameters.set("status", filters.status());
        }
        if (filters.method() != null) {
            parameters.set("method", filters.method());
        }
        if (filters.pathPrefix() != null) {
            parameters.set("path_prefix", filters.pathPrefix());
        }
        if (filters.requestId() != null) {
            parameters.set("request_id", filters.requestId());
        }
        if (filters.keyId() != null) {
            parameters.set("key_id", filters.keyId());
        }
        after.ifPresent(position ->
                parameters.set("after_created_at", position.createdAt()).set("after_id", position.id()));
        return parameters.execute(pool).map(rows -> {
            List<RequestLog> logs = new ArrayList<>();
            for (Row row : rows) {
                logs.add(new RequestLog(
                        row.getString("id"),
                        row.getString("method"),
                        row.getString("path"),
                        row.getInteger("status"),
                        row.getInteger("duration_ms"),
                        row.getString("key_id"),
                        Mode.fromWire(row.getString("mode")).orElseThrow(),
                        row.getOffsetDateTime("created_at").toInstant()));
            }
            return logs;
        });
    }

    /** When each key of the workspace+mode last made a request, as far as the logs reach back. */
    public Uni<Map<String, Instant>> lastUsedByKey(String workspaceId, Mode mode) {
        return LAST_USED
                .parameters()
                .set("workspace_id", workspaceId)
                .set("mode", mode.wireName())
                .execute(pool)
                .map(rows -> {
                    Map<String, Instant> lastUsed = new HashMap<>();
                    for (Row row : rows) {
                        lastUsed.put(
                                row.getString("key_id"),
                                row.getOffsetDateTime("last_used").toInstant());
                    }
                    return lastUsed;
                });
    }

    /** How many requests the workspace+mode logged on each UTC day since {@code since}; days without any are absent. */
    public Uni<Map<LocalDate, Long>> requestsPerDay(String workspaceId, Mode mode, Instant since) {
        return PER_DAY.parameters()
                .set("workspace_id", workspaceId)
                .set("mode", mode.wireName())
                .set("since", since)
                .execute(pool)
                .map(rows -> {
                    Map<LocalDate, Long> perDay = new TreeMap<>();
                    for (Row row : rows) {
                        perDay.put(row.getLocalDate("day"), row.getLong("requests"));
                    }
                    return perDay;
                });
    }

    public Uni<Integer> deleteOlderThan(Instant before) {
        return DELETE_OLDER_THAN
                .parameters()
                .set("before", before)
                .execute(pool)
                .map(rows -> rows.rowCount());
    }
}
