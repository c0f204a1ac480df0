package dev.herald.common.wire;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/**
 * {@code GET /posts/{id}/analytics}: how a post performs on each account it was published to.
 * Each target says whether numbers are {@link Target#AVAILABLE}, still {@link Target#PENDING} (not published yet),
 * {@link Target#UNAVAILABLE} (failed or canceled, or Herald cannot read that platform; {@code reason} says which) or
 * {@link Target#REDACTED} (a YouTube account whose owner has not accepted the analytics policy for its current
 * authorization). {@code metrics} and {@code raw} are null unless available; {@code refreshedAt} is when the numbers
 * were read from the platform (they may be older than the read when the platform could not be asked again).
 */
public record PostAnalytics(String object, String postId, List<Target> targets) {
    public static final String OBJECT = "post_analytics";

    public static PostAnalytics of(String postId, List<Target> targets) {
        return new PostAnalytics(OBJECT, postId, targets);
    }

    /** One target's numbers. {@code raw} holds the platform's own fields as it answered them. */
    public record Target(
            String accountId,
            Platform platform,
            String providerPostId,
            String status,
            String reason,
            Metrics metrics,
            JsonNode raw,
            Instant refreshedAt) {
        public static final String AVAILABLE = "available";
        public static final String PENDING = "pending";
        public static final String UNAVAILABLE = "unavailable";
        public static final String REDACTED = "redacted";
    }

    /** Lifetime counts, normalized across platforms; null where the platform does not report one. */
    public record Metrics(Long views, Long likes, Long comments, Long shares, Long saves, Long reach) {}
}
