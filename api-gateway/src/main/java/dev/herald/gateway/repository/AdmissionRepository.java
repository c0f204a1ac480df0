package dev.herald.gateway.repository;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.ZoneOffset;

/**
 * The two counters every request meets, shared by all gateway replicas through PostgreSQL: the
 * calendar-minute rate window and the monthly API-request meter. One statement, one round trip: the
 * window always counts the request; the meter counts it only when it is metered, within the rate limit
 * and still under the allowance, so racing requests can never push the meter past its limit.
 */
@ApplicationScoped
public class AdmissionRepository {
    private final Pool pool;

    public AdmissionRepository(Pool pool) {
        this.pool = pool;
    }

    /** What the statement saw: the window's count with this request, and the meter before and after it. */
    public record Counts(int windowCount, long meterUsedBefore, boolean metered) {
    }

    public Uni<Counts> admit(String subject, Instant windowStart, Instant periodStart, boolean meter, int perMinute,
                             long monthlyLimit) {
        return pool.preparedQuery("""
                        with window_count as (
                            insert into rate_limit_windows (subject, window_start, request_count) values ($1, $2, 1)
                            on conflict (subject, window_start)
                            do update set request_count = rate_limit_windows.request_count + 1
                            returning request_count
                        ), metered as (
                            insert into api_request_counts (subject, period_start, used)
                            select $1, $3, 1
                            where $4 and (select request_count from window_count) <= $5 and $6 >= 1
                            on conflict (subject, period_start)
                            do update set used = api_request_counts.used + 1 where api_request_counts.used < $6
                            returning used
                        )
                        select (select request_count from window_count) as window_count,
                               (select used from metered) as metered_used,
                               coalesce((select used from api_request_counts where subject = $1 and period_start = $3), 0)
                                   as used_before""")
                .execute(Tuple.of(subject, utc(windowStart), utc(periodStart), meter, perMinute, monthlyLimit))
                .map(rows -> {
                    Row row = rows.iterator().next();
                    return new Counts(row.getInteger("window_count"), row.getLong("used_before"),
                            row.getLong("metered_used") != null);
                });
    }

    /** Gives back a request's unit when its answer turned out not to count (5xx, 429, replay, cached read). */
    public Uni<Void> refund(String subject, Instant periodStart) {
        return pool.preparedQuery("update api_request_counts set used = used - 1 where subject = $1 and period_start = $2 and used > 0")
                .execute(Tuple.of(subject, utc(periodStart))).replaceWithVoid();
    }

    /** Drops windows that ended before {@code before}; they are never read again. */
    public Uni<Integer> deleteWindowsEndedBefore(Instant before) {
        return pool.preparedQuery("delete from rate_limit_windows where window_start < $1")
                .execute(Tuple.of(utc(before)))
                .map(rows -> rows.rowCount());
    }

    private static java.time.OffsetDateTime utc(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }
}
