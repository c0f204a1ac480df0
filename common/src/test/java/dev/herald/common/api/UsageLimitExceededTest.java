package dev.herald.common.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.auth.Mode;
import dev.herald.common.rest.JsonMapperCustomizer;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UsageLimitExceededTest {
    private static final ObjectMapper JSON = JsonMapperCustomizer.configure(new ObjectMapper());
    private static final Instant RESET = Instant.parse("2026-12-01T00:00:00Z");

    private static UsageLimitExceeded publications(long used, long reserved, Instant resetAt) {
        return new UsageLimitExceeded(
                "publications", Mode.LIVE, "starter", 300, used, reserved, resetAt, "https://herald.dev/pricing", 42);
    }

    @Test
    void detailsAreTheSpecsInItsOrder() throws Exception {
        assertThat(JSON.writeValueAsString(publications(290, 10, RESET).details()))
                .isEqualTo("{\"metric\":\"publications\",\"mode\":\"live\",\"plan\":\"starter\",\"limit\":300,"
                        + "\"used\":290,\"reserved\":10,\"remaining\":0,\"reset_at\":\"2026-12-01T00:00:00Z\","
                        + "\"upgrade_url\":\"https://herald.dev/pricing\",\"retry_after_seconds\":42}");
    }

    @Test
    void resetAtIsWrittenAsHeraldsJsonWritesAnInstant() throws Exception {
        Instant fractional = Instant.parse("2026-12-01T00:00:00.123456Z");
        String written = JSON.writeValueAsString(publications(0, 0, fractional).details());
        assertThat(written).contains("\"reset_at\":" + JSON.writeValueAsString(fractional) + ",");
    }

    @Test
    void remainingIsWhatIsNeitherUsedNorReserved() {
        assertThat(publications(200, 50, RESET).remaining()).isEqualTo(50);
        assertThat(publications(200, 50, RESET).details()).containsEntry("remaining", 50L);
        assertThat(publications(310, 0, RESET).remaining()).isZero();
    }

    @Test
    void retryAfterRoundsUpToTheResetAndIsNeverNegative() {
        assertThat(UsageLimitExceeded.secondsUntil(RESET.minusMillis(1), RESET)).isEqualTo(1);
        assertThat(UsageLimitExceeded.secondsUntil(RESET.minusMillis(1000), RESET))
                .isEqualTo(1);
        assertThat(UsageLimitExceeded.secondsUntil(RESET.minusMillis(1001), RESET))
                .isEqualTo(2);
        assertThat(UsageLimitExceeded.secondsUntil(RESET, RESET)).isZero();
        assertThat(UsageLimitExceeded.secondsUntil(RESET.plusSeconds(5), RESET)).isZero();
    }

    @Test
    void theRefusalIsA429WithRetryAfter() {
        ApiException refusal = publications(300, 0, RESET).toException("The publications allowance is used up.");
        assertThat(refusal.code()).isEqualTo(ErrorCode.USAGE_LIMIT_EXCEEDED);
        assertThat(refusal.getMessage()).isEqualTo("The publications allowance is used up.");
        assertThat(refusal.headers()).isEqualTo(Map.of("Retry-After", "42"));
        assertThat(refusal.details()).containsEntry("retry_after_seconds", 42L);
    }
}
