package dev.herald.gateway.repository;

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

/**
 * The two counters every request meets, shared by all gateway replicas through PostgreSQL: the
 * calendar-minute rate window and the monthly API-request meter. One statement counts a whole batch of
 * requests: the window always counts each request; the meter grants a unit only to metered requests within
 * the rate limit and only while under the allowance, in request order, so racing requests (in one batch
 * or in concurrent statements from other replicas) can never push the meter past its limit.
 */
@ApplicationScoped
public class AdmissionRepository {
    private static final String ADMIT_ALL = """
            with request as (
                select * from unnest($1::text[], $2::timestamptz[], $3::timestamptz[], $4::boolean[], $5::integer[], $6::bigint[])
                    with ordinality as r(subject, window_start, period_start, meter, per_minute, monthly_limit, ord)
            ), window_count as (
                insert into rate_limit_windows as w (subject, window_start, request_count)
                select subject, window_start, count(*) from request group by subject, window_start
                on conflict (subject, window_start) do update set request_count = w.request_count + excluded.request_count
                returning subject, window_start, request_count
            ), placed as (
                -- the batch's requests take the window's last positions, in request order
                select r.*, w.request_count - count(*) over same_window + row_number() over (same_window order by r.ord)
                           as window_position
                from request r join window_count w on w.subject = r.subject and w.window_start = r.window_start
                window same_window as (partition by r.subject, r.window_start)
            ), chargeable as (
                select p.ord, p.subject, p.period_start, p.monthly_limit,
                       row_number() over (partition by p.subject, p.period_start order by p.ord) as charge_rank
                from placed p where p.meter and p.window_position <= p.per_minute
            ), wanted as (
                select subject, period_start, count(*) as units, min(monthly_limit) as monthly_limit
                from chargeable group by subject, period_start
            ), metered as (
                insert into api_request_counts as c (subject, period_start, used, last_grant)
                select subject, period_start, least(units, monthly_limit), least(units, monthly_limit) from wanted
                on conflict (subject, period_start) do update
                    set used = greatest(c.used, least(c.used + excluded.used, (select monthly_limit from wanted
                                   where wanted.subject = c.subject and wanted.period_start = c.period_start))),
                        last_grant = greatest(c.used, least(c.used + excluded.used, (select monthly_limit from wanted
                                   where wanted.subject = c.subject and wanted.period_start = c.period_start))) - c.used
                returning subject, period_start, used, last_grant
            )
            select p.ord, p.window_position,
                   coalesce(ch.charge_rank <= m.last_grant, false) as metered,
                   case when ch.charge_rank <= m.last_grant then m.used - m.last_grant + ch.charge_rank - 1
                        else coalesce(m.used, current_count.used, 0) end as used_before
            from placed p
            left join chargeable ch on ch.ord = p.ord
            left join metered m on m.subject = p.subject and m.period_start = p.period_start
            left join api_request_counts current_count
                   on current_count.subject = p.subject and current_count.period_start = p.period_start
            order by p.ord""";

    private final Pool pool;

    public AdmissionRepository(Pool pool) {
        this.pool = pool;
    }

    /**
     * One request to count. {@code meter}: whether it should take a unit of the monthly allowance;
     * {@code monthlyLimit} is {@link Long#MAX_VALUE} when unlimited.
     */
    public record CountRequest(String subject, Instant windowStart, Instant periodStart, boolean meter, int perMinute,
                               long monthlyLimit) {
    }

    /** What the statement saw for one request: its position in the window, and the meter before it. */
    public record Counts(int windowCount, long meterUsedBefore, boolean metered) {
    }

    /** Counts the requests in one statement; the answers come back in the same order. */
    public Uni<List<Counts>> admitAll(List<CountRequest> requests) {
        int size = requests.size();
        String[] subjects = new String[size];
        OffsetDateTime[] windows = new OffsetDateTime[size];
        OffsetDateTime[] periods = new OffsetDateTime[size];
        Boolean[] meters = new Boolean[size];
        Integer[] perMinute = new Integer[size];
        Long[] monthly = new Long[size];
        for (int i = 0; i < size; i++) {
            CountRequest request = requests.get(i);
            subjects[i] = request.subject();
            windows[i] = utc(request.windowStart());
            periods[i] = utc(request.periodStart());
            meters[i] = request.meter();
            perMinute[i] = request.perMinute();
            monthly[i] = request.monthlyLimit();
        }
        return pool.preparedQuery(ADMIT_ALL)
                .execute(Tuple.of(subjects, windows, periods, meters, perMinute, monthly))
                .map(rows -> {
                    List<Counts> counts = new ArrayList<>(size);
                    for (Row row : rows) {
                        counts.add(new Counts(row.getLong("window_position").intValue(), row.getLong("used_before"),
                                row.getBoolean("metered")));
                    }
                    if (counts.size() != size) {
                        throw new IllegalStateException("admission answered " + counts.size() + " of " + size + " requests");
                    }
                    return counts;
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

    private static OffsetDateTime utc(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }
}
