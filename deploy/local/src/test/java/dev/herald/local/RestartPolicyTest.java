package dev.herald.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RestartPolicyTest {
    private static final RestartPolicy POLICY = RestartPolicy.STANDARD;
    private static final Instant T0 = Instant.parse("2026-11-28T10:00:00Z");

    @Test
    void crashesInARowWaitOneSecondDoublingUpToAMinute() {
        assertThat(POLICY.delay(1)).isEqualTo(Duration.ofSeconds(1));
        assertThat(POLICY.delay(2)).isEqualTo(Duration.ofSeconds(2));
        assertThat(POLICY.delay(3)).isEqualTo(Duration.ofSeconds(4));
        assertThat(POLICY.delay(6)).isEqualTo(Duration.ofSeconds(32));
        assertThat(POLICY.delay(7)).isEqualTo(Duration.ofSeconds(60));
        for (int n : new int[] {8, 63, 64, 1_000, Integer.MAX_VALUE}) {
            assertThat(POLICY.delay(n)).isEqualTo(Duration.ofSeconds(60));
        }
    }

    @Test
    void aComponentThatCrashesOnceIsRestartedAfterOneSecond() {
        RestartPolicy.Verdict verdict =
                POLICY.afterCrash(RestartPolicy.Crashes.NONE, T0, T0.plus(Duration.ofMinutes(3)));

        assertThat(verdict.restart()).isTrue();
        assertThat(verdict.delay()).isEqualTo(Duration.ofSeconds(1));
        assertThat(verdict.crashes().inARow()).isEqualTo(1);
    }

    @Test
    void theBackoffDoublesWhileRunsStayShortAndStartsOverAfterTenHealthyMinutes() {
        RestartPolicy.Crashes crashes = RestartPolicy.Crashes.NONE;
        Instant now = T0;
        Duration[] expected = {Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(4)};
        for (Duration delay : expected) {
            // Each run lasts two minutes: short of healthy, and three crashes stay below the crash loop's five.
            Instant started = now;
            now = now.plus(Duration.ofMinutes(2));
            RestartPolicy.Verdict verdict = POLICY.afterCrash(crashes, started, now);
            assertThat(verdict.restart()).isTrue();
            assertThat(verdict.delay()).isEqualTo(delay);
            crashes = verdict.crashes();
        }

        Instant started = now;
        RestartPolicy.Verdict afterHealthyRun = POLICY.afterCrash(crashes, started, now.plus(Duration.ofMinutes(10)));

        assertThat(afterHealthyRun.restart()).isTrue();
        assertThat(afterHealthyRun.delay()).isEqualTo(Duration.ofSeconds(1));
        assertThat(afterHealthyRun.crashes().inARow()).isEqualTo(1);
    }

    @Test
    void theFifthCrashWithinFiveMinutesLeavesTheComponentDown() {
        RestartPolicy.Crashes crashes = RestartPolicy.Crashes.NONE;
        Instant now = T0;
        for (int crash = 1; crash <= 4; crash++) {
            Instant started = now;
            now = now.plusSeconds(20);
            RestartPolicy.Verdict verdict = POLICY.afterCrash(crashes, started, now);
            assertThat(verdict.restart()).as("crash %d", crash).isTrue();
            crashes = verdict.crashes();
        }

        RestartPolicy.Verdict fifth = POLICY.afterCrash(crashes, now, now.plusSeconds(20));

        assertThat(fifth.restart()).isFalse();
        assertThat(fifth.crashes().recent()).hasSize(5);
    }

    @Test
    void crashesOlderThanFiveMinutesNoLongerCountTowardsALoop() {
        RestartPolicy.Crashes crashes = RestartPolicy.Crashes.NONE;
        Instant now = T0;
        for (int crash = 1; crash <= 4; crash++) {
            Instant started = now;
            now = now.plusSeconds(20);
            crashes = POLICY.afterCrash(crashes, started, now).crashes();
        }
        // The first crash was at T0+20 s; five minutes later it has dropped out of the window.
        Instant fifthAt = T0.plusSeconds(20).plus(Duration.ofMinutes(5));

        RestartPolicy.Verdict fifth = POLICY.afterCrash(crashes, now, fifthAt);

        assertThat(fifth.restart()).isTrue();
        assertThat(fifth.crashes().recent()).hasSize(4);
        // Still short runs in a row: the backoff keeps doubling.
        assertThat(fifth.delay()).isEqualTo(Duration.ofSeconds(16));
    }

    @Test
    void anExitIsDescribedByItsCodeOrTheSignalThatEndedIt() {
        assertThat(RestartPolicy.describeExit(1)).isEqualTo("exit code 1");
        assertThat(RestartPolicy.describeExit(0)).isEqualTo("exit code 0");
        assertThat(RestartPolicy.describeExit(137)).isEqualTo("signal 9 (SIGKILL)");
        assertThat(RestartPolicy.describeExit(143)).isEqualTo("signal 15 (SIGTERM)");
        assertThat(RestartPolicy.describeExit(134)).isEqualTo("signal 6 (SIGABRT)");
        assertThat(RestartPolicy.describeExit(138)).isEqualTo("signal 10");
        assertThat(RestartPolicy.describeExit(128)).isEqualTo("exit code 128");
        assertThat(RestartPolicy.describeExit(255)).isEqualTo("exit code 255");
    }
}
