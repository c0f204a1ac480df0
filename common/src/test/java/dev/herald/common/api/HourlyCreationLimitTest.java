package dev.herald.common.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class HourlyCreationLimitTest {
    private static final Instant NOW = Instant.parse("2026-11-28T10:00:00Z");
    private final HourlyCreationLimit limit = new HourlyCreationLimit("connect sessions", 3);

    @Test
    void creationsUnderTheCapPass() {
        assertThat(limit.refusal(0, null, NOW)).isEmpty();
        assertThat(limit.refusal(2, NOW.minusSeconds(10), NOW)).isEmpty();
    }

    @Test
    void theCapIsRefusedUntilTheOldestCreationLeavesTheWindow() {
        ApiException refusal =
                limit.refusal(3, NOW.minusSeconds(3600 - 42), NOW).orElseThrow();

        assertThat(refusal.code()).isEqualTo(ErrorCode.RATE_LIMIT_EXCEEDED);
        assertThat(refusal.code().httpStatus()).isEqualTo(429);
        assertThat(refusal.headers()).containsEntry("Retry-After", "42");
        assertThat(refusal.details())
                .containsEntry("limit", 3)
                .containsEntry("window_seconds", 3600L)
                .containsEntry("retry_after_seconds", 42L);
        assertThat(refusal.getMessage())
                .isEqualTo(
                        "This workspace created 3 connect sessions in the last hour, the most it may. Retry after 42 s.");
    }

    @Test
    void retryAfterIsAtLeastOneSecond() {
        assertThat(limit.refusal(5, NOW.minusSeconds(3600), NOW).orElseThrow().headers())
                .containsEntry("Retry-After", "1");
    }

    @Test
    void zeroTurnsTheCapOff() {
        assertThat(new HourlyCreationLimit("API keys", 0).refusal(1_000, NOW, NOW))
                .isEmpty();
    }

    @Test
    void theWindowIsTheLastHour() {
        assertThat(HourlyCreationLimit.windowStart(NOW)).isEqualTo(Instant.parse("2026-11-28T09:00:00Z"));
    }
}
