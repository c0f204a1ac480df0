package dev.herald.delivery.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RetryBackoffTest {
    private static final Duration BASE = Duration.ofSeconds(1);
    private static final Duration MAX = Duration.ofSeconds(60);

    @Test
    void eachRetryWaitsBetweenHalfAndAllOfADoublingCeiling() {
        assertThat(RetryBackoff.delay(BASE, MAX, 1, 0.0)).isEqualTo(Duration.ofMillis(500));
        assertThat(RetryBackoff.delay(BASE, MAX, 1, 0.999_999))
                .isBetween(Duration.ofMillis(999), Duration.ofSeconds(1));
        assertThat(RetryBackoff.delay(BASE, MAX, 2, 0.0)).isEqualTo(Duration.ofSeconds(1));
        assertThat(RetryBackoff.delay(BASE, MAX, 3, 0.5)).isEqualTo(Duration.ofSeconds(3));
        assertThat(RetryBackoff.delay(BASE, MAX, 4, 0.0)).isEqualTo(Duration.ofSeconds(4));
    }

    @Test
    void theCeilingStopsAtTheMaximumHoweverManyRetries() {
        assertThat(RetryBackoff.delay(BASE, MAX, 7, 0.999_999)).isBetween(Duration.ofSeconds(59), MAX);
        assertThat(RetryBackoff.delay(BASE, MAX, 7, 0.0)).isEqualTo(Duration.ofSeconds(30));
        for (int n : new int[] {8, 40, 64, 1_000, Integer.MAX_VALUE}) {
            assertThat(RetryBackoff.delay(BASE, MAX, n, 0.0)).isEqualTo(Duration.ofSeconds(30));
            assertThat(RetryBackoff.delay(BASE, MAX, n, 0.999_999)).isLessThanOrEqualTo(MAX);
        }
    }

    @Test
    void aRetryNumberBelowOneWaitsLikeTheFirst() {
        assertThat(RetryBackoff.delay(BASE, MAX, 0, 0.0)).isEqualTo(Duration.ofMillis(500));
    }

    @Test
    void aProvidersRetryAfterHoldsTheRetryBackUpToTheCap() {
        Duration cap = Duration.ofMinutes(15);
        assertThat(RetryBackoff.atLeast(Duration.ofSeconds(2), Duration.ofSeconds(120), cap))
                .isEqualTo(Duration.ofSeconds(120));
        assertThat(RetryBackoff.atLeast(Duration.ofSeconds(8), Duration.ofSeconds(3), cap))
                .isEqualTo(Duration.ofSeconds(8));
        assertThat(RetryBackoff.atLeast(Duration.ofSeconds(2), Duration.ofHours(6), cap))
                .isEqualTo(cap);
        assertThat(RetryBackoff.atLeast(Duration.ofSeconds(2), null, cap)).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void theRetryAfterIsReadFromTheErrorsDetails() {
        assertThat(DeliveryAttempts.providerAsked(new dev.herald.common.wire.TargetError(
                        "provider_error", "busy", true, java.util.Map.of("retry_after_seconds", 120))))
                .isEqualTo(Duration.ofSeconds(120));
        assertThat(DeliveryAttempts.providerAsked(
                        new dev.herald.common.wire.TargetError("provider_error", "busy", true, java.util.Map.of())))
                .isNull();
        assertThat(DeliveryAttempts.providerAsked(new dev.herald.common.wire.TargetError(
                        "provider_error", "busy", true, java.util.Map.of("retry_after_seconds", "soon"))))
                .isNull();
    }
}
