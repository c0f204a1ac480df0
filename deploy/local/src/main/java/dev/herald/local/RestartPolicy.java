package dev.herald.local;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * When the supervisor of {@code ./herald up} starts a component again after it exited without being asked to: after
 * a backoff that doubles with each crash in a row ({@code firstDelay}, twice that, ... up to {@code maxDelay}) and
 * starts over once a run lasted {@code healthyReset}; never again once it crashed {@code crashLoopCrashes} times
 * within {@code crashLoopWindow} (a crash loop: a broken setting or a missing dependency that another start will not
 * mend, and whose log the user should read). The decision only; {@link CrashSupervisor} acts on it.
 *
 * @param firstDelay       the wait before the first restart after a healthy run
 * @param maxDelay         the longest wait
 * @param healthyReset     a run at least this long counts as healthy: the next crash waits {@code firstDelay} again
 * @param crashLoopCrashes this many crashes ...
 * @param crashLoopWindow  ... within this window leave the component down
 */
public record RestartPolicy(
        Duration firstDelay, Duration maxDelay, Duration healthyReset, int crashLoopCrashes, Duration crashLoopWindow) {

    /** 1 s doubling to 60 s, reset after 10 minutes up; left down after 5 crashes in 5 minutes. */
    public static final RestartPolicy STANDARD = new RestartPolicy(
            Duration.ofSeconds(1), Duration.ofSeconds(60), Duration.ofMinutes(10), 5, Duration.ofMinutes(5));

    /** A component's crashes the policy remembers: how many in a row, and when the recent ones happened. */
    public record Crashes(int inARow, List<Instant> recent) {
        public static final Crashes NONE = new Crashes(0, List.of());

        public Crashes {
            recent = List.copyOf(recent);
        }
    }

    /** Restart after {@code delay}, or leave the component down ({@code restart} false: a crash loop). */
    public record Verdict(boolean restart, Duration delay, Crashes crashes) {}

    /**
     * What to do about a component that was started at {@code startedAt} and exited, unasked, at {@code exitedAt}
     * (a restart that failed at once counts as a crash too).
     */
    public Verdict afterCrash(Crashes before, Instant startedAt, Instant exitedAt) {
        boolean ranHealthy = Duration.between(startedAt, exitedAt).compareTo(healthyReset) >= 0;
        int inARow = (ranHealthy ? 0 : before.inARow()) + 1;
        List<Instant> recent = new ArrayList<>();
        for (Instant crash : before.recent()) {
            if (crash.isAfter(exitedAt.minus(crashLoopWindow))) {
                recent.add(crash);
            }
        }
        recent.add(exitedAt);
        Crashes after = new Crashes(inARow, recent);
        if (recent.size() >= crashLoopCrashes) {
            return new Verdict(false, Duration.ZERO, after);
        }
        return new Verdict(true, delay(inARow), after);
    }

    /** The wait before the n-th restart in a row (n from 1): firstDelay * 2^(n-1), at most maxDelay. */
    Duration delay(int n) {
        int doublings = Math.min(Math.max(n - 1, 0), 62);
        long first = firstDelay.toMillis();
        long max = maxDelay.toMillis();
        // Compared before shifting, so a long crash series cannot overflow.
        return Duration.ofMillis(first >= (max >> doublings) ? max : first << doublings);
    }

    /**
     * How a child process ended, from its exit value as the JDK reports it: 128 + n when signal n ended it (the
     * shell's convention, which the JDK follows on Linux), else the code it exited with.
     */
    public static String describeExit(int exitValue) {
        if (exitValue > 128 && exitValue < 128 + 65) {
            int signal = exitValue - 128;
            String name = switch (signal) {
                case 1 -> " (SIGHUP)";
                case 2 -> " (SIGINT)";
                case 6 -> " (SIGABRT)";
                case 9 -> " (SIGKILL)";
                case 11 -> " (SIGSEGV)";
                case 15 -> " (SIGTERM)";
                default -> "";
            };
            return "signal " + signal + name;
        }
        return "exit code " + exitValue;
    }
}
