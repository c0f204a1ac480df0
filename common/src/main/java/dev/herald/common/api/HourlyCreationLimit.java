package dev.herald.common.api;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * A cap on how many of one thing a workspace (in one mode) may create per rolling hour: a business flow that scripts
 * could abuse (OWASP API6), such as connect sessions or API keys. Over the cap, the creation is {@code 429
 * rate_limit_exceeded} with {@code Retry-After}: the seconds until the oldest creation in the window leaves it. The
 * count is read before the row is written, so concurrent creations may pass the cap by a few; it bounds abuse, it
 * is not an exact quota.
 *
 * @param what    the plural a message names ("connect sessions")
 * @param perHour the cap; 0 turns it off
 */
public record HourlyCreationLimit(String what, int perHour) {
    public static final Duration WINDOW = Duration.ofHours(1);

    /** Where the window that counts starts. */
    public static Instant windowStart(Instant now) {
        return now.minus(WINDOW);
    }

    /**
     * The refusal when {@code createdInWindow} creations since {@link #windowStart} leave no room, the oldest of them
     * made at {@code oldestInWindow}; empty when one more may be made.
     */
    public Optional<ApiException> refusal(long createdInWindow, Instant oldestInWindow, Instant now) {
        if (perHour <= 0 || createdInWindow < perHour) {
            return Optional.empty();
        }
        long retryAfter = oldestInWindow == null
                ? WINDOW.toSeconds()
                : Math.max(1, Duration.between(now, oldestInWindow.plus(WINDOW)).toSeconds());
        return Optional.of(new ApiException(
                ErrorCode.RATE_LIMIT_EXCEEDED,
                "This workspace created " + perHour + " " + what + " in the last hour, the most it may. Retry after "
                        + retryAfter + " s.",
                Map.of("limit", perHour, "window_seconds", WINDOW.toSeconds(), "retry_after_seconds", retryAfter),
                Map.of("Retry-After", Long.toString(retryAfter))));
    }
}
