package dev.herald.usage.catalog;

import dev.herald.common.auth.Mode;
import dev.herald.common.wire.UsagePeriod;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;

/**
 * Usage periods (spec section 8): a live paid subscription renews monthly from the moment it started, in
 * UTC; free, beta and complimentary plans and all of test mode reset on calendar months (UTC).
 */
public final class UsagePeriods {
    private UsagePeriods() {}

    public static boolean isAnniversary(Mode mode, PlanSource source) {
        return mode == Mode.LIVE && source == PlanSource.SUBSCRIPTION;
    }

    /** The period containing {@code at} for a plan of this source that started at {@code startedAt}. */
    public static UsagePeriod containing(Mode mode, PlanSource source, Instant startedAt, Instant at) {
        return isAnniversary(mode, source) ? anniversary(startedAt, at) : calendarMonth(at);
    }

    public static UsagePeriod calendarMonth(Instant at) {
        YearMonth month = YearMonth.from(at.atZone(ZoneOffset.UTC));
        Instant start = month.atDay(1).atStartOfDay(ZoneOffset.UTC).toInstant();
        Instant end = month.plusMonths(1).atDay(1).atStartOfDay(ZoneOffset.UTC).toInstant();
        return new UsagePeriod(start, end);
    }

    /**
     * Period n is {@code [start + n months, start + (n+1) months)}, each counted from the original start, so a
     * subscription that started on the 31st renews on the last day of shorter months and on the 31st again.
     */
    public static UsagePeriod anniversary(Instant startedAt, Instant at) {
        ZonedDateTime anchor = startedAt.atZone(ZoneOffset.UTC);
        long n = ChronoUnit.MONTHS.between(anchor, at.atZone(ZoneOffset.UTC));
        while (anchor.plusMonths(n).toInstant().isAfter(at)) {
            n--;
        }
        while (!anchor.plusMonths(n + 1).toInstant().isAfter(at)) {
            n++;
        }
        return new UsagePeriod(
                anchor.plusMonths(n).toInstant(), anchor.plusMonths(n + 1).toInstant());
    }
}
