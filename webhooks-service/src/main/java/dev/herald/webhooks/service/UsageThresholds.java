package dev.herald.webhooks.service;

import dev.herald.common.events.UsageEvent.MeterState;
import java.util.ArrayList;
import java.util.List;

/**
 * Which thresholds of its allowance a meter has reached: {@value #WARNING} and {@value #EXHAUSTED} percent of the
 * limit, counting units used and reserved (what the allowance check counts: at 100 % the next reservation is
 * refused). A meter without a limit, or with none to reach (0), reaches nothing.
 */
public final class UsageThresholds {
    public static final int WARNING = 80;
    public static final int EXHAUSTED = 100;
    private static final List<Integer> ALL = List.of(WARNING, EXHAUSTED);

    private UsageThresholds() {}

    /** The thresholds {@code state} is at or past, lowest first. */
    public static List<Integer> reached(MeterState state) {
        if (state == null || state.limit() == null || state.limit() <= 0) {
            return List.of();
        }
        long counted = state.used() + state.reserved();
        List<Integer> reached = new ArrayList<>(ALL.size());
        for (int threshold : ALL) {
            // counted / limit >= threshold / 100, in integers (no rounding at the edge; limits are far below 2^56).
            if (counted * 100 >= threshold * state.limit()) {
                reached.add(threshold);
            }
        }
        return reached;
    }
}
