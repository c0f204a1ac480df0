package dev.herald.gateway.repository;

import dev.herald.common.persistence.NamedStatement;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The two counters every request meets, shared by all gateway replicas through PostgreSQL: the
 * calendar-minute rate window and the monthly API-request meter. One statement counts a whole batch of
 * requests: the window always counts each request; the meter grants a unit only to metered requests within
 * the rate limit and only while under the allowance, so racing requests (in one batch or in concurrent
 * statements from other replicas) can never push the meter past its limit.
 */
@ApplicationScoped
public class AdmissionStatements {
    /** One row per subject: how many requests it has in the batch, and how many of them are metered. */
    static final NamedStatement ADMIT_ALL = NamedStatement.of("""
            with request as (
                select * from unnest(:subjects::text[], :window_starts::timestamptz[], :period_starts::timestamptz[], :requests::integer[], :metered::integer[],
                                     :per_minute::integer[], :monthly_limits::bigint[])
                    as r(subject, window_start, period_start, requests, metered, per_minute, monthly_limit)
            ), window_count as (
                insert into rate_limit_windows as w (subject, window_start, request_count)
                select subject, window_start, requests from request
                on conflict (subject, window_start) do update set request_count = w.request_count + excluded.request_count
                returning subject, request_count
            ), chargeable as (
                -- metered requests take their subject's first positions in the window; those within the limit are chargeable
                select r.subject, r.period_start, r.monthly_limit,
                       greatest(0, least(r.metered, r.per_minute - (w.request_count - r.requests))) as units
                from request r join window_count w on w.subject = r.subject
                where r.metered > 0
            ), metered as (
                insert into api_request_counts as c (subject, period_start, used, last_grant)
                select subject, period_start, least(units, monthly_limit), least(units, monthly_limit) from chargeable
                on conflict (subject, period_start) do update
                    set used = greatest(c.used, least(c.used + excluded.used,
                                   (select monthly_limit from request r where r.subject = c.subject))),
                        last_grant = greatest(c.used, least(c.used + excluded.used,
                                   (select monthly_limit from request r where r.subject = c.subject))) - c.used
                returning subject, used, last_grant
            )
            select r.subject, w.request_count as window_count, coalesce(m.last_grant, 0) as granted,
                   coalesce(m.used, current_count.used, 0) as used_now
            from request r
            join window_count w on w.subject = r.subject
            left join metered m on m.subject = r.subject
            left join api_request_counts current_count
                   on current_count.subject = r.subject and current_count.period_start = r.period_start""");

    private static final NamedStatement REFUND = NamedStatement.of(
            "update api_request_counts set used = used - 1 where subject = :subject and period_start = :period_start and used > 0");

    private static final NamedStatement METERED_USED = NamedStatement.of(
            "select used from api_request_counts where subject = :subject and period_start = :period_start");

    private static final NamedStatement DELETE_WINDOWS_ENDED_BEFORE =
            NamedStatement.of("delete from rate_limit_windows where window_start < :before");

    private final Pool pool;

    public AdmissionStatements(Pool pool) {
        this.pool = pool;
    }

    /**
     * One request to count. {@code meter}: whether it should take a unit of the monthly allowance;
     * {@code monthlyLimit} is {@link Long#MAX_VALUE} when unlimited.
     */
    public record CountRequest(
            String subject,
            Instant windowStart,
            Instant periodStart,
            boolean meter,
            int perMinute,
            long monthlyLimit,
            int lease) {
        public CountRequest(
                String subject,
                Instant windowStart,
                Instant periodStart,
                boolean meter,
                int perMinute,
                long monthlyLimit) {
            this(subject, windowStart, periodStart, meter, perMinute, monthlyLimit, 0);
        }

        /** Whether both requests count in the same window and meter, under the same limits. */
        public boolean sameCounters(CountRequest other) {
            return subject.equals(other.subject)
                    && windowStart.equals(other.windowStart)
                    && periodStart.equals(other.periodStart)
                    && perMinute == other.perMinute
                    && monthlyLimit == other.monthlyLimit;
        }
    }

    /**
     * What the statement saw for one request: its position in the window, and the meter before it. A subject's
     * requests also learn the window positions taken for the gateway's lease ({@code leaseFirst}, {@code leaseSize}
     * positions after the batch's own), which {@link RateWindowLeases} hands to the subject's next requests.
     */
    public record Counts(int windowCount, long meterUsedBefore, boolean metered, int leaseFirst, int leaseSize) {
        public Counts(int windowCount, long meterUsedBefore, boolean metered) {
            this(windowCount, meterUsedBefore, metered, 0, 0);
        }
    }

    /**
     * Counts the requests in one statement; the answers come back in the same order. A subject's requests
     * must agree on window, period and limits (they do, but for a request straddling a minute or a plan
     * change: {@link AdmissionBatcher} sends those in the next statement). Within a subject, metered requests
     * take the first window positions: they arrived together, so any order is a true one, and this one lets
     * the statement work per subject instead of per request. A subject's lease (the largest any of its requests asked
     * for) takes the positions after its requests.
     */
    public Uni<List<Counts>> admitAll(List<CountRequest> requests) {
        Map<String, List<Integer>> bySubject = new LinkedHashMap<>();
        for (int i = 0; i < requests.size(); i++) {
            CountRequest request = requests.get(i);
            List<Integer> members = bySubject.computeIfAbsent(request.subject(), subject -> new ArrayList<>());
            if (!members.isEmpty() && !requests.get(members.get(0)).sameCounters(request)) {
                throw new IllegalArgumentException(
                        "requests of " + request.subject() + " disagree on window, period or limits");
            }
            members.add(i);
        }
        int groups = bySubject.size();
        String[] subjects = new String[groups];
        OffsetDateTime[] windows = new OffsetDateTime[groups];
        OffsetDateTime[] periods = new OffsetDateTime[groups];
        Integer[] counts = new Integer[groups];
        Integer[] metered = new Integer[groups];
        Integer[] perMinute = new Integer[groups];
        Long[] monthly = new Long[groups];
        Map<String, Integer> leases = new LinkedHashMap<>();
        int g = 0;
        for (List<Integer> members : bySubject.values()) {
            // metered first, each kind in arrival order
            members.sort(Comparator.comparing((Integer i) -> !requests.get(i).meter()));
            CountRequest first = requests.get(members.get(0));
            subjects[g] = first.subject();
            windows[g] = utc(first.windowStart());
            periods[g] = utc(first.periodStart());
            int lease = members.stream()
                    .mapToInt(i -> requests.get(i).lease())
                    .max()
                    .orElse(0);
            leases.put(first.subject(), lease);
            counts[g] = members.size() + lease;
            metered[g] =
                    (int) members.stream().filter(i -> requests.get(i).meter()).count();
            perMinute[g] = first.perMinute();
            monthly[g] = first.monthlyLimit();
            g++;
        }
        return ADMIT_ALL
                .parameters()
                .set("subjects", subjects)
                .set("window_starts", windows)
                .set("period_starts", periods)
                .set("requests", counts)
                .set("metered", metered)
                .set("per_minute", perMinute)
                .set("monthly_limits", monthly)
                .execute(pool)
                .map(rows -> {
                    Counts[] answers = new Counts[requests.size()];
                    for (Row row : rows) {
                        List<Integer> members = bySubject.get(row.getString("subject"));
                        long granted = row.getLong("granted");
                        long usedNow = row.getLong("used_now");
                        long usedBeforeGrants = usedNow - granted;
                        int lease = leases.get(row.getString("subject"));
                        int firstPosition = row.getInteger("window_count") - lease - members.size() + 1;
                        int leaseFirst = lease == 0 ? 0 : firstPosition + members.size();
                        for (int n = 0; n < members.size(); n++) {
                            boolean grantedHere = requests.get(members.get(n)).meter() && n < granted;
                            answers[members.get(n)] = new Counts(
                                    firstPosition + n,
                                    grantedHere ? usedBeforeGrants + n : usedNow,
                                    grantedHere,
                                    leaseFirst,
                                    lease);
                        }
                    }
                    List<Counts> inOrder = Arrays.asList(answers);
                    if (inOrder.contains(null)) {
                        throw new IllegalStateException(
                                "admission answered " + rows.size() + " of " + groups + " subjects");
                    }
                    return inOrder;
                });
    }

    /** Gives back a request's unit when its answer turned out not to count (5xx, 429, replay, cached read). */
    public Uni<Void> refund(String subject, Instant periodStart) {
        return REFUND.parameters()
                .set("subject", subject)
                .set("period_start", periodStart)
                .execute(pool)
                .replaceWithVoid();
    }

    /** The monthly API requests counted for {@code subject} in the period starting {@code periodStart}; 0 before any. */
    public Uni<Long> meteredUsed(String subject, Instant periodStart) {
        return METERED_USED
                .parameters()
                .set("subject", subject)
                .set("period_start", periodStart)
                .execute(pool)
                .map(rows -> rows.iterator().hasNext() ? rows.iterator().next().getLong("used") : 0L);
    }

    /** Drops windows that ended before {@code before}; they are never read again. */
    public Uni<Integer> deleteWindowsEndedBefore(Instant before) {
        return DELETE_WINDOWS_ENDED_BEFORE
                .parameters()
                .set("before", before)
                .execute(pool)
                .map(rows -> rows.rowCount());
    }

    private static OffsetDateTime utc(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }
}
