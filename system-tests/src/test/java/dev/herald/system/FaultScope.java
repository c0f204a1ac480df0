package dev.herald.system;

import java.util.List;

/**
 * How much the fault tests break. {@link RollingRestartIT} restarts a short list in CI and every service with
 * {@code -Dherald.faults=all}; {@code -Dherald.faults.rounds=N} repeats {@link CrashRecoveryIT}'s sequence
 * ({@code bench/faults.sh} runs the long version).
 */
final class FaultScope {
    private FaultScope() {}

    /** {@code all} when {@code -Dherald.faults=all} is given, otherwise CI's {@code ciShort}. */
    static List<String> components(List<String> ciShort, List<String> all) {
        return "all".equals(System.getProperty("herald.faults")) ? all : ciShort;
    }

    /** How many times the sequence runs ({@code -Dherald.faults.rounds}, once by default). */
    static int rounds() {
        return Integer.getInteger("herald.faults.rounds", 1);
    }
}
