package dev.herald.gateway.repository;

import dev.herald.common.auth.Mode;
import dev.herald.common.paging.CursorPosition;
import dev.herald.common.wire.RequestLog;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Request log rows: written in batches, read newest first within one workspace and mode. */
@ApplicationScoped
public class RequestLogRepository {
    private final Pool pool;

    public RequestLogRepository(Pool pool) {
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
        // One statement for the whole batch: a row per request costs PostgreSQL far less than a statement per row.
        return pool.preparedQuery("""
                        insert into request_logs (id, workspace_id, mode, key_id, method, path, status, duration_ms, created_at)
                        select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[],
                                             $7::integer[], $8::integer[], $9::timestamptz[])
                        on conflict (id) do nothing""")
                .execute(Tuple.tuple(
                        List.of(ids, workspaces, modes, keys, methods, paths, statuses, durations, createdAt)))
                .replaceWithVoid();
    }

    /** The filters of {@code GET /logs}; null means not filtered. */
    public record Filters(Integer status, String method, String pathPrefix, String requestId) {}

    public Uni<List<RequestLog>> listPage(
            String workspaceId, Mode mode, Filters filters, Optional<CursorPosition> after, int fetchSize) {
        StringBuilder sql = new StringBuilder("""
                select id, method, path, status, duration_ms, key_id, mode, created_at from request_logs
                where workspace_id = $1 and mode = $2""");
        List<Object> parameters = new ArrayList<>(List.of(workspaceId, mode.wireName()));
        if (filters.status() != null) {
            parameters.add(filters.status());
            sql.append(" and status = $").append(parameters.size());
        }
        if (filters.method() != null) {
            parameters.add(filters.method());
            sql.append(" and method = $").append(parameters.size());
        }
        if (filters.pathPrefix() != null) {
            // starts_with: a plain prefix, no pattern characters to escape.
            parameters.add(filters.pathPrefix());
            sql.append(" and starts_with(path, $").append(parameters.size()).append(")");
        }
        if (filters.requestId() != null) {
            parameters.add(filters.requestId());
            sql.append(" and id = $").append(parameters.size());
        }
        if (after.isPresent()) {
            parameters.add(after.get().createdAt().atOffset(ZoneOffset.UTC));
            int at = parameters.size();
            parameters.add(after.get().id());
            sql.append(" and (created_at < $")
                    .append(at)
                    .append(" or (created_at = $")
                    .append(at)
                    .append(" and id < $")
                    .append(at + 1)
                    .append("))");
        }
        parameters.add(fetchSize);
        sql.append(" order by created_at desc, id desc limit $").append(parameters.size());
        return pool.preparedQuery(sql.toString())
                .execute(Tuple.tuple(parameters))
                .map(rows -> {
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

    public Uni<Integer> deleteOlderThan(Instant before) {
        return pool.preparedQuery("delete from request_logs where created_at < $1")
                .execute(Tuple.of(before.atOffset(ZoneOffset.UTC)))
                .map(rows -> rows.rowCount());
    }
}
