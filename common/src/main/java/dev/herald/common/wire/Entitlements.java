package dev.herald.common.wire;

import java.time.Instant;

/**
 * What the gateway needs to admit a workspace+mode's requests, as usage-service answers
 * {@code GET /internal/entitlements}: the plan, the current usage period, the per-minute rate and the
 * monthly API-request allowance ({@code null}: unlimited).
 */
public record Entitlements(String plan, String planSource, Period period, RateLimit rateLimit, Long apiRequestsLimit) {
    public record Period(Instant start, Instant end) {
    }

    public record RateLimit(int perMinute) {
    }
}
