package dev.herald.common.api;

import dev.herald.common.auth.Mode;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A spent monthly allowance, as {@code 429 usage_limit_exceeded} reports it (spec section 7): the one place that
 * builds its {@code details}, for the gateway's API-request allowance and usage-service's meters alike, so the two
 * answer with the same body. {@code retryAfterSeconds} is also the {@code Retry-After} header.
 */
public record UsageLimitExceeded(
        String metric,
        Mode mode,
        String plan,
        long limit,
        long used,
        long reserved,
        Instant resetAt,
        String upgradeUrl,
        long retryAfterSeconds) {

    /**
     * Whole seconds from {@code now} until {@code resetAt}, rounded up (a client that waits exactly this long must
     * not come back just before the reset), never negative.
     */
    public static long secondsUntil(Instant now, Instant resetAt) {
        return Math.max(0, (Duration.between(now, resetAt).toMillis() + 999) / 1000);
    }

    /** What is left of the allowance: neither used nor reserved. */
    public long remaining() {
        return Math.max(0, limit - used - reserved);
    }

    /** The error's {@code details}, in the spec's order. */
    public Map<String, Object> details() {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("metric", metric);
        details.put("mode", mode.wireName());
        details.put("plan", plan);
        details.put("limit", limit);
        details.put("used", used);
        details.put("reserved", reserved);
        details.put("remaining", remaining());
        // As Herald's JSON writes an Instant (RFC 3339, UTC), whichever mapper the caller serializes with.
        details.put("reset_at", resetAt.toString());
        details.put("upgrade_url", upgradeUrl);
        details.put("retry_after_seconds", retryAfterSeconds);
        return details;
    }

    /** The refusal: {@code 429 usage_limit_exceeded} with these details and {@code Retry-After}. */
    public ApiException toException(String message) {
        return new ApiException(
                ErrorCode.USAGE_LIMIT_EXCEEDED,
                message,
                details(),
                Map.of("Retry-After", Long.toString(retryAfterSeconds)));
    }
}
