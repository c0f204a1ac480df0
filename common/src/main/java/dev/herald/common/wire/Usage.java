package dev.herald.common.wire;

import dev.herald.common.auth.Mode;
import java.time.Instant;

/**
 * {@code GET /usage} (spec section 8): the plan of one workspace and mode and its meters in the current
 * period. {@code mediaBytes}, {@code commentRequests} and {@code newConnections} are null in test mode.
 */
public record Usage(
        Mode mode,
        String plan,
        String planSource,
        String catalogVersion,
        UsagePeriod period,
        Instant resetAt,
        Instant graceEndsAt,
        Accounts accounts,
        Meter publications,
        Meter apiRequests,
        Meter mediaBytes,
        Meter commentRequests,
        Meter newConnections,
        RateLimit rateLimit,
        int concurrentIngests) {

    /** Connected accounts now: a level, not a monthly meter. */
    public record Accounts(long used, long limit, long remaining) {}

    /** A monthly meter; {@code remaining} is limit minus used and reserved, never below zero. */
    public record Meter(long used, long reserved, long limit, long remaining, Instant resetAt) {}

    public record RateLimit(int perMinute) {}
}
