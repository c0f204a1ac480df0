package dev.herald.usage.catalog;

import dev.herald.common.auth.Mode;
import java.util.EnumMap;
import java.util.Map;

/**
 * The plan catalog, version {@value #VERSION} (spec section 8). Media allowances are decimal gigabytes:
 * 1 GB = 10^9 bytes.
 */
public final class PlanCatalog {
    public static final String VERSION = "2026-09";
    public static final long GB = 1_000_000_000L;

    /** Test mode's own allowances, whatever the plan (rate and concurrent ingests follow the plan). */
    public static final long TEST_ACCOUNTS = 10;
    public static final long TEST_PUBLICATIONS = 1_000;
    public static final long TEST_API_REQUESTS = 10_000;

    private static final Map<Plan, Allowances> LIVE = new EnumMap<>(Map.of(
            Plan.FREE, new Allowances(2, 20, 1 * GB, 2_000, 200L, 30, 1, 4L),
            Plan.STARTER, new Allowances(10, 300, 30 * GB, 25_000, 3_000L, 60, 2, 20L),
            Plan.GROWTH, new Allowances(40, 1_500, 150 * GB, 100_000, 15_000L, 120, 5, 80L),
            Plan.SCALE, new Allowances(100, 5_000, 500 * GB, 250_000, 50_000L, 300, 10, 200L)));

    private PlanCatalog() {
    }

    public static Allowances allowances(Plan plan, Mode mode) {
        Allowances live = LIVE.get(plan);
        if (mode == Mode.LIVE) {
            return live;
        }
        return new Allowances(TEST_ACCOUNTS, TEST_PUBLICATIONS, null, TEST_API_REQUESTS, null,
                live.requestsPerMinute(), live.concurrentIngests(), null);
    }
}
