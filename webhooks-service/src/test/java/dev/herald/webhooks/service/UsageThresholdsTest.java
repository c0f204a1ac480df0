package dev.herald.webhooks.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.common.events.UsageEvent.MeterState;
import org.junit.jupiter.api.Test;

class UsageThresholdsTest {
    @Test
    void belowEightyPercentReachesNothing() {
        assertThat(UsageThresholds.reached(new MeterState(70, 9, 100L))).isEmpty();
    }

    @Test
    void eightyPercentOfUsedAndReservedTogetherReachesTheWarning() {
        assertThat(UsageThresholds.reached(new MeterState(70, 10, 100L))).containsExactly(80);
        assertThat(UsageThresholds.reached(new MeterState(0, 8, 10L))).containsExactly(80);
    }

    @Test
    void theWholeAllowanceReachesBothAndMoreStillDoes() {
        assertThat(UsageThresholds.reached(new MeterState(100, 0, 100L))).containsExactly(80, 100);
        // Media may pass its limit by one file; consumption in a later period is not checked.
        assertThat(UsageThresholds.reached(new MeterState(120, 5, 100L))).containsExactly(80, 100);
    }

    @Test
    void theEdgeIsNotRoundedAway() {
        // 7 of 9 is 77.8 %, 8 of 9 is 88.9 %: only the second is at 80 %.
        assertThat(UsageThresholds.reached(new MeterState(7, 0, 9L))).isEmpty();
        assertThat(UsageThresholds.reached(new MeterState(8, 0, 9L))).containsExactly(80);
        assertThat(UsageThresholds.reached(new MeterState(8, 0, 9L))).doesNotContain(100);
    }

    @Test
    void anUnlimitedOrZeroAllowanceReachesNothing() {
        assertThat(UsageThresholds.reached(new MeterState(1_000_000, 0, null))).isEmpty();
        assertThat(UsageThresholds.reached(new MeterState(0, 0, 0L))).isEmpty();
        assertThat(UsageThresholds.reached(null)).isEmpty();
    }
}
