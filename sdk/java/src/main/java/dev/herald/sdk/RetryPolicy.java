package dev.herald.sdk;

import java.time.Clock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * When the SDK sends a request again: on 429 ({@code rate_limit_exceeded}, {@code usage_limit_exceeded}) and 503
 * ({@code service_unavailable}) only, at most {@code maxRetries} times, after the {@code Retry-After} the answer gives
 * (seconds or an HTTP date) or, without one, after an exponential backoff from one second. A wait longer than
 * {@code maxDelay} is not waited out (a month's allowance resets in days): the caller gets the error and its
 * {@link HeraldApiException#retryAfter()}. Retrying is safe: a 429 or 503 changed nothing, and {@code POST /posts}
 * carries the same {@code Idempotency-Key} every time.
 */
public record RetryPolicy(int maxRetries, Duration maxDelay) {
    /** Two retries, waiting at most 30 seconds each. */
    public static final RetryPolicy DEFAULT = new RetryPolicy(2, Duration.ofSeconds(30));
    /** Never retries. */
    public static final RetryPolicy NONE = new RetryPolicy(0, Duration.ZERO);

    private static final Duration FIRST_BACKOFF = Duration.ofSeconds(1);

    public RetryPolicy {
        if (maxRetries < 0 || maxDelay == null || maxDelay.isNegative()) {
            throw new IllegalArgumentException("maxRetries and maxDelay must be zero or positive");
        }
    }

    static boolean retryable(int status) {
        return status == 429 || status == 503;
    }

    /**
     * How long to wait before retry number {@code retry} (1-based) of a request answered {@code status} with this
     * {@code Retry-After} (null when absent); empty when it is not to be retried.
     */
    Optional<Duration> delayBeforeRetry(int retry, int status, String retryAfter, Clock clock) {
        if (!retryable(status) || retry > maxRetries) {
            return Optional.empty();
        }
        Duration delay =
                retryAfter(retryAfter, clock).orElse(FIRST_BACKOFF.multipliedBy(1L << Math.min(retry - 1, 10)));
        return delay.compareTo(maxDelay) > 0 ? Optional.empty() : Optional.of(delay);
    }

    /** A {@code Retry-After} value: delay-seconds or an HTTP date (RFC 9110); empty when absent or unreadable. */
    static Optional<Duration> retryAfter(String value, Clock clock) {
        if (value == null || value.isBlank()) {
            return Optional.empty();
        }
        String text = value.trim();
        if (text.chars().allMatch(Character::isDigit) && text.length() <= 9) {
            return Optional.of(Duration.ofSeconds(Long.parseLong(text)));
        }
        try {
            Duration until = Duration.between(
                    clock.instant(),
                    ZonedDateTime.parse(text, DateTimeFormatter.RFC_1123_DATE_TIME)
                            .toInstant());
            return Optional.of(until.isNegative() ? Duration.ZERO : until);
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
