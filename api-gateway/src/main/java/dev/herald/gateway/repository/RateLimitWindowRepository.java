package dev.herald.gateway.repository;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.ZoneOffset;

/**
 * Counts requests per subject per calendar minute in PostgreSQL, so every gateway replica sees the same
 * count. One atomic upsert per request: no read-modify-write race.
 */
@ApplicationScoped
public class RateLimitWindowRepository {
    private final Pool pool;

    public RateLimitWindowRepository(Pool pool) {
        this.pool = pool;
    }

    /** Adds one request to the window and returns the window's count including it. */
    public Uni<Integer> increment(String subject, Instant windowStart) {
        return pool.preparedQuery("""
                        insert into rate_limit_windows (subject, window_start, request_count) values ($1, $2, 1)
                        on conflict (subject, window_start)
                        do update set request_count = rate_limit_windows.request_count + 1
                        returning request_count""")
                .execute(Tuple.of(subject, windowStart.atOffset(ZoneOffset.UTC)))
                .map(rows -> rows.iterator().next().getInteger(0));
    }

    /** Drops windows that ended before {@code before}; they are never read again. */
    public Uni<Integer> deleteEndedBefore(Instant before) {
        return pool.preparedQuery("delete from rate_limit_windows where window_start < $1")
                .execute(Tuple.of(before.atOffset(ZoneOffset.UTC)))
                .map(rows -> rows.rowCount());
    }
}
