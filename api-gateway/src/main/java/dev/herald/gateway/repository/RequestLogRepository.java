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
    public record Entry(String workspaceId, RequestLog log) {
    }

    public Uni<Void> insertAll(List<Entry> entries) {
        if (entries.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        List<Tuple> rows = new ArrayList<>(entries.size());
        for (Entry entry : entries) {
            RequestLog log = entry.log();
            rows.add(Tuple.tuple(List.of(log.id(), entry.workspaceId(), log.mode().wireName(), log.keyId(), log.method(),
                    log.path(), log.status(), log.durationMs(), log.createdAt().atOffset(ZoneOffset.UTC))));
        }
        return pool.preparedQuery("""
                        insert into request_logs (id, workspace_id, mode, key_id, method, path, status, duration_ms, created_at)
                        values ($1, $2, $3, $4, $5, $6, $7, $8, $9) on conflict (id) do nothing""")
                .executeBatch(rows).replaceWithVoid();
    }

    /** The filters of {@code GET /logs}; null means not filtered. */
    public record Filters(Integer status, String method, String pathPrefix, String requestId) {
    }

    public Uni<List<RequestLog>> listPage(String workspaceId, Mode mode, Filters filters, Optional<CursorPosition> after,
                                          int fetchSize) {
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
            sql.append(" and (created_at < $").append(at).append(" or (created_at = $").append(at)
                    .append(" and id < $").append(at + 1).append("))");
        }
        parameters.add(fetchSize);
        sql.append(" order by created_at desc, id desc limit $").append(parameters.size());
        return pool.preparedQuery(sql.toString()).execute(Tuple.tuple(parameters)).map(rows -> {
            List<RequestLog> logs = new ArrayList<>();
            for (Row row : rows) {
                logs.add(new RequestLog(row.getString("id"), row.getString("method"), row.getString("path"),
                        row.getInteger("status"), row.getInteger("duration_ms"), row.getString("key_id"),
                        Mode.fromWire(row.getString("mode")).orElseThrow(),
                        row.getOffsetDateTime("created_at").toInstant()));
            }
            return logs;
        });
    }

    public Uni<Integer> deleteOlderThan(Instant before) {
        return pool.preparedQuery("delete from request_logs where created_at < $1")
                .execute(Tuple.of(before.atOffset(ZoneOffset.UTC))).map(rows -> rows.rowCount());
    }
}
