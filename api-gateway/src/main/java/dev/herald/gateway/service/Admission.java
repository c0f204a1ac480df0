package dev.herald.gateway.service;

import dev.herald.common.wire.Entitlements;

/**
 * The verdict on one request: its rate window, and whether it may proceed. {@code meteredUsed} is the
 * monthly meter including this request when it was metered.
 */
public record Admission(
        Outcome outcome, RateLimitStatus rateLimit, Entitlements entitlements, long meteredUsed, String subject) {
    public enum Outcome {
        ADMITTED,
        /** Over the per-minute limit: {@code 429 rate_limit_exceeded}. */
        RATE_LIMITED,
        /** The monthly API-request allowance is spent: {@code 429 usage_limit_exceeded}. */
        ALLOWANCE_SPENT
    }
}
