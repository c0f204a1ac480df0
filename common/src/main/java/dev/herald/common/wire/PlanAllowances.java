package dev.herald.common.wire;

/**
 * One plan of the catalog in one mode, as usage-service answers {@code GET /internal/plans} (cheapest first): what
 * a workspace on it may use. Monthly allowances are null when unlimited (test mode's media, comment requests and new
 * connections); test mode's accounts, publications and API requests are its own whatever the plan.
 */
public record PlanAllowances(
        String plan,
        long connectedAccounts,
        long publications,
        Long mediaBytes,
        long apiRequests,
        Long commentRequests,
        Long newConnections,
        RateLimit rateLimit,
        int concurrentIngests) {

    public record RateLimit(int perMinute) {}
}
