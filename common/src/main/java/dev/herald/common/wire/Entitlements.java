package dev.herald.common.wire;

import java.time.Instant;

/**
 * What the gateway needs to admit a workspace+mode's requests, as usage-service answers
 * {@code GET /internal/entitlements}: the plan, the current usage period, the per-minute rate and the
 * monthly API-request allowance ({@code null}: unlimited); delivery-worker reads how many media ingests may run at
 * once ({@code concurrentIngests}).
 */
public record Entitlements(
        String plan,
        String planSource,
        Period period,
        RateLimit rateLimit,
        Long apiRequestsLimit,
        int concurrentIngests) {
    public record Period(Instant start, Instant end) {}

    public record RateLimit(int perMinute) {}
}
