package dev.herald.system;

import java.util.List;

/**
 * How much the fault tests ({@link RollingRestartIT}, {@link CrashRecoveryIT}) break. CI breaks a short list;
 * {@code -Dherald.faults=all} breaks every component and {@code -Dherald.faults.rounds=N} repeats the sequence
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
