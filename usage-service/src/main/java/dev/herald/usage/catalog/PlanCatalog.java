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

    private static final Map<Plan, Allowances> CATALOG = new EnumMap<>(Map.of(
            Plan.FREE, new Allowances(2, 20, 1 * GB, 2_000, 200L, 30, 1, 4L),
            Plan.STARTER, new Allowances(10, 300, 30 * GB, 25_000, 3_000L, 60, 2, 20L),
            Plan.GROWTH, new Allowances(40, 1_500, 150 * GB, 100_000, 15_000L, 120, 5, 80L),
            Plan.SCALE, new Allowances(100, 5_000, 500 * GB, 250_000, 50_000L, 300, 10, 200L)));

    /** The catalog in force: {@link #CATALOG}, unless a test or benchmark overrode some values. */
    private static volatile Map<Plan, Allowances> live = CATALOG;

    private PlanCatalog() {}

    public static Allowances allowances(Plan plan, Mode mode) {
        Allowances allowances = live.get(plan);
        if (mode == Mode.LIVE) {
            return allowances;
        }
        return new Allowances(
                TEST_ACCOUNTS,
                TEST_PUBLICATIONS,
                null,
                TEST_API_REQUESTS,
                null,
                allowances.requestsPerMinute(),
                allowances.concurrentIngests(),
                null);
    }

    /**
     * Replaces catalog values, for tests and benchmarks only (a benchmark needs a rate limit it cannot hit; a
     * system test needs an allowance it can spend): {@code "starter.api_requests=5,scale.per_minute=100000"}.
     * Fields: accounts, publications, media_bytes, api_requests, comment_requests, per_minute,
     * concurrent_ingests, new_connections.
     */
    public static void override(String overrides) {
        Map<Plan, Allowances> changed = new EnumMap<>(CATALOG);
        for (String entry : overrides.split(",")) {
            String[] assignment = entry.trim().split("=", 2);
            String[] target = assignment[0].trim().split("\\.", 2);
            if (assignment.length != 2 || target.length != 2) {
                throw new IllegalArgumentException("not a plan override (plan.field=value): " + entry);
            }
            Plan plan = Plan.fromWire(target[0])
                    .orElseThrow(() -> new IllegalArgumentException("unknown plan: " + target[0]));
            long value = Long.parseLong(assignment[1].trim());
            Allowances a = changed.get(plan);
            changed.put(
                    plan,
                    switch (target[1]) {
                        case "accounts" ->
                            new Allowances(
                                    value,
                                    a.publications(),
                                    a.mediaBytes(),
                                    a.apiRequests(),
                                    a.commentRequests(),
                                    a.requestsPerMinute(),
                                    a.concurrentIngests(),
                                    a.newConnections());
                        case "publications" ->
                            new Allowances(
                                    a.connectedAccounts(),
                                    value,
                                    a.mediaBytes(),
                                    a.apiRequests(),
                                    a.commentRequests(),
                                    a.requestsPerMinute(),
                                    a.concurrentIngests(),
                                    a.newConnections());
                        case "media_bytes" ->
                            new Allowances(
                                    a.connectedAccounts(),
                                    a.publications(),
                                    value,
                                    a.apiRequests(),
                                    a.commentRequests(),
                                    a.requestsPerMinute(),
                                    a.concurrentIngests(),
                                    a.newConnections());
                        case "api_requests" ->
                            new Allowances(
                                    a.connectedAccounts(),
                                    a.publications(),
                                    a.mediaBytes(),
                                    value,
                                    a.commentRequests(),
                                    a.requestsPerMinute(),
                                    a.concurrentIngests(),
                                    a.newConnections());
                        case "comment_requests" ->
                            new Allowances(
                                    a.connectedAccounts(),
                                    a.publications(),
                                    a.mediaBytes(),
                                    a.apiRequests(),
                                    value,
                                    a.requestsPerMinute(),
                                    a.concurrentIngests(),
                                    a.newConnections());
                        case "per_minute" ->
                            new Allowances(
                                    a.connectedAccounts(),
                                    a.publications(),
                                    a.mediaBytes(),
                                    a.apiRequests(),
                                    a.commentRequests(),
                                    Math.toIntExact(value),
                                    a.concurrentIngests(),
                                    a.newConnections());
                        case "concurrent_ingests" ->
                            new Allowances(
                                    a.connectedAccounts(),
                                    a.publications(),
                                    a.mediaBytes(),
                                    a.apiRequests(),
                                    a.commentRequests(),
                                    a.requestsPerMinute(),
                                    Math.toIntExact(value),
                                    a.newConnections());
                        case "new_connections" ->
                            new Allowances(
                                    a.connectedAccounts(),
                                    a.publications(),
                                    a.mediaBytes(),
                                    a.apiRequests(),
                                    a.commentRequests(),
                                    a.requestsPerMinute(),
                                    a.concurrentIngests(),
                                    value);
                        default -> throw new IllegalArgumentException("unknown allowance: " + target[1]);
                    });
        }
        live = changed;
    }
}
