package dev.herald.webhooks.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RetryScheduleTest {
    static final List<Duration> SVIX = List.of(
            Duration.ofSeconds(5),
            Duration.ofMinutes(5),
            Duration.ofMinutes(30),
            Duration.ofHours(2),
            Duration.ofHours(5),
            Duration.ofHours(10),
            Duration.ofHours(10));

    @Test
    void theDefaultScheduleGivesEightAttemptsWithDesignsWaits() {
        RetrySchedule exact = new RetrySchedule(SVIX, () -> 0.5);
        assertThat(exact.maxAttempts()).isEqualTo(8);
        for (int attempt = 1; attempt <= 7; attempt++) {
            assertThat(exact.after(attempt, Optional.empty())).contains(SVIX.get(attempt - 1));
        }
        assertThat(exact.after(8, Optional.empty())).isEmpty();
    }

    @Test
    void waitsAreJitteredByUpToTenPercent() {
        assertThat(new RetrySchedule(SVIX, () -> 0.0).after(2, Optional.empty()))
                .contains(Duration.ofSeconds(270));
        assertThat(new RetrySchedule(SVIX, () -> 0.999999)
                        .after(2, Optional.empty())
                        .orElseThrow())
                .isBetween(Duration.ofMillis(329_999), Duration.ofSeconds(330));
    }

    @Test
    void aLongerRetryAfterIsHonouredUpToTheLongestWait() {
        RetrySchedule schedule = new RetrySchedule(SVIX, () -> 0.5);
        assertThat(schedule.after(1, Optional.of(Duration.ofSeconds(60)))).contains(Duration.ofSeconds(60));
        assertThat(schedule.after(1, Optional.of(Duration.ofSeconds(1)))).contains(Duration.ofSeconds(5));
        assertThat(schedule.after(1, Optional.of(Duration.ofDays(30)))).contains(Duration.ofHours(10));
        assertThat(schedule.after(8, Optional.of(Duration.ofSeconds(60)))).isEmpty();
    }

    @Test
    void retryAfterIsReadAsSecondsOrAnHttpDate() {
        Instant now = Instant.parse("2026-01-01T00:00:00Z");
        assertThat(RetrySchedule.parseRetryAfter("120", now)).contains(Duration.ofSeconds(120));
        assertThat(RetrySchedule.parseRetryAfter(" 7 ", now)).contains(Duration.ofSeconds(7));
        assertThat(RetrySchedule.parseRetryAfter("Thu, 01 Jan 2026 00:01:30 GMT", now))
                .contains(Duration.ofSeconds(90));
        assertThat(RetrySchedule.parseRetryAfter("Wed, 31 Dec 2025 23:00:00 GMT", now))
                .contains(Duration.ZERO);
        assertThat(RetrySchedule.parseRetryAfter("soon", now)).isEmpty();
        assertThat(RetrySchedule.parseRetryAfter("-5", now)).isEmpty();
        assertThat(RetrySchedule.parseRetryAfter(null, now)).isEmpty();
    }
}
