package dev.herald.common.wire;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;

/**
 * {@code GET /accounts/{id}/analytics}: the account's audience and lifetime totals as its platform reports them.
 * {@code status} is {@link PostAnalytics.Target#AVAILABLE}, {@code unavailable} (with
 * {@code reason}) or {@code redacted} (YouTube without analytics consent for the current authorization); {@code metrics}
 * and {@code raw} are null unless available.
 */
public record AccountAnalytics(
        String object,
        String accountId,
        Platform platform,
        String status,
        String reason,
        Metrics metrics,
        JsonNode raw,
        Instant refreshedAt) {
    public static final String OBJECT = "account_analytics";

    /** Normalized counts; null where the platform does not report one. */
    public record Metrics(Long followers, Long following, Long posts, Long views, Long likes) {}
}
