package dev.herald.sdk;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-28T10:00:00Z"), ZoneOffset.UTC);
    private final RetryPolicy policy = new RetryPolicy(2, Duration.ofSeconds(30));

    @Test
    void retryAfterSecondsIsWaitedOnA429AndA503() {
        assertThat(policy.delayBeforeRetry(1, 429, "7", CLOCK)).contains(Duration.ofSeconds(7));
        assertThat(policy.delayBeforeRetry(2, 503, "0", CLOCK)).contains(Duration.ZERO);
    }

    @Test
    void retryAfterAsAnHttpDateIsTheTimeUntilThen() {
        assertThat(policy.delayBeforeRetry(1, 429, "Sat, 28 Nov 2026 10:00:12 GMT", CLOCK))
                .contains(Duration.ofSeconds(12));
        assertThat(RetryPolicy.retryAfter("Sat, 28 Nov 2026 09:00:00 GMT", CLOCK))
                .contains(Duration.ZERO);
    }

    @Test
    void withoutRetryAfterTheWaitDoublesFromOneSecond() {
        assertThat(policy.delayBeforeRetry(1, 503, null, CLOCK)).contains(Duration.ofSeconds(1));
        assertThat(policy.delayBeforeRetry(2, 503, "soon", CLOCK)).contains(Duration.ofSeconds(2));
    }

    @Test
    void otherStatusesAreNeverRetried() {
        for (int status : new int[] {200, 400, 404, 409, 500, 502}) {
            assertThat(policy.delayBeforeRetry(1, status, "1", CLOCK)).isEmpty();
        }
    }

    @Test
    void noMoreThanMaxRetriesAndNoWaitLongerThanMaxDelay() {
        assertThat(policy.delayBeforeRetry(3, 429, "1", CLOCK)).isEmpty();
        // usage_limit_exceeded's Retry-After is the time until the allowance resets: the caller decides.
        assertThat(policy.delayBeforeRetry(1, 429, "31", CLOCK)).isEmpty();
        assertThat(RetryPolicy.NONE.delayBeforeRetry(1, 429, "1", CLOCK)).isEmpty();
    }
}
