package dev.herald.delivery.model;

import java.time.Instant;

/**
 * Which deliveries a claim takes: pending ones whose {@code next_attempt_at} is in {@code (pendingAfter, pendingUpTo]},
 * publishing ones whose lease lapsed in {@code (lapsedAfter, lapsedUpTo]}, and ({@code overdue}) those a watchdog took
 * over before whose lease lapsed; an {@code overdue} claim marks what it takes. The claim loop takes the on-time part
 * and the watchdog the overdue part ({@code StuckDeliveryRule}), so the two never take the same row.
 */
public record ClaimWindow(
        Instant pendingAfter, Instant pendingUpTo, Instant lapsedAfter, Instant lapsedUpTo, boolean overdue) {
    /** Before any delivery's time: a window from here has no lower bound. */
    public static final Instant BEGINNING = Instant.EPOCH;

    /** Every delivery due by {@code now}, however late. */
    public static ClaimWindow upTo(Instant now) {
        return new ClaimWindow(BEGINNING, now, BEGINNING, now, false);
    }
}
