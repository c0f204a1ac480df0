package dev.herald.posts.service;

import dev.herald.common.wire.PostSeries;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.Period;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * When the posts of a series fall ({@code repeat}, {@link PostSeries.Repeat}): occurrence {@code n} (the first post is
 * 0) is {@code n} periods after the first post's local date and time in the series' zone, so a post at 09:00 local
 * stays at 09:00 across daylight-saving changes. Counting from the first post, not from the one before, keeps a
 * monthly post on the 31st at the end of short months and back on the 31st after them (Jan 31, Feb 28, Mar 31).
 * A local time the zone skips moves on by the gap (02:30 becomes 03:30), one it repeats is its first occurrence: the
 * rule of RFC 5545 that {@code PostQueue} follows too.
 */
public record Recurrence(Period every, ZoneId zone, Instant firstAt, Instant until, Integer count) {
    /** A period of whole days, weeks, months or years: {@code P7D}, {@code P1W}, {@code P1M}, {@code P1Y}. */
    static final Pattern EVERY = Pattern.compile("^P([0-9]{1,9})([DWMY])$");

    static final int MAX_DAYS = 366;
    static final int MAX_WEEKS = 52;
    static final int MAX_MONTHS = 12;
    private static final Duration CREATION_LEEWAY = Duration.ofHours(1);

    public static Recurrence of(PostSeries.Repeat repeat, Instant firstAt) {
        Period every = period(repeat.every()).orElseThrow(() -> new IllegalArgumentException(repeat.every()));
        return new Recurrence(every, ZoneId.of(repeat.timezone()), firstAt, repeat.until(), repeat.count());
    }

    /**
     * {@code every} as a period, when it is one of whole days (up to {@value #MAX_DAYS}), weeks (up to
     * {@value #MAX_WEEKS}), months (up to {@value #MAX_MONTHS}) or {@code P1Y}; empty otherwise.
     */
    static Optional<Period> period(String every) {
        Matcher matcher = every == null ? null : EVERY.matcher(every);
        if (matcher == null || !matcher.matches()) {
            return Optional.empty();
        }
        int amount = Integer.parseInt(matcher.group(1));
        if (amount == 0) {
            return Optional.empty();
        }
        return switch (matcher.group(2)) {
            case "D" -> amount <= MAX_DAYS ? Optional.of(Period.ofDays(amount)) : Optional.empty();
            case "W" -> amount <= MAX_WEEKS ? Optional.of(Period.ofWeeks(amount)) : Optional.empty();
            case "M" -> amount <= MAX_MONTHS ? Optional.of(Period.ofMonths(amount)) : Optional.empty();
            default -> amount == 1 ? Optional.of(Period.ofYears(1)) : Optional.empty();
        };
    }

    /** The time of occurrence {@code n} (0 is the first post). */
    public Instant at(int n) {
        LocalDateTime local = LocalDateTime.ofInstant(firstAt, zone).plus(every.multipliedBy(n));
        // No preferred offset: a repeated local time takes the earlier offset (its first occurrence).
        return ZonedDateTime.ofLocal(local, zone, null).toInstant();
    }

    /**
     * When occurrence {@code n} (from 1) is created: when the one before falls due, so each copy's reservation is made
     * one period ahead, not all at once; but never more than a year before its own time (less an hour of leeway), as
     * no post may be scheduled further ahead ({@code P1Y} across a February 29 is 366 days).
     */
    public Instant createAt(int n) {
        Instant earliest = at(n).minus(PostRules.MAX_SCHEDULE_AHEAD).plus(CREATION_LEEWAY);
        Instant before = at(n - 1);
        return before.isAfter(earliest) ? before : earliest;
    }

    /** Whether occurrence {@code n} belongs to the series: within {@code count} posts, or not after {@code until}. */
    public boolean includes(int n) {
        return count != null ? n < count : !at(n).isAfter(until);
    }
}
