package dev.herald.common.wire;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.common.auth.Mode;
import java.time.Instant;
import java.util.List;

/**
 * A post as the API shows it (spec section 2). {@code status} is {@link #QUEUED} until the post is handed to
 * delivery ({@link #PUBLISHING}), then one of the final statuses. {@code media} and {@code platformOptions}
 * echo what was accepted ({@code null} and {@code {}} when not given).
 */
public record Post(
        String id,
        String text,
        String status,
        Mode mode,
        Media media,
        Instant scheduledAt,
        ObjectNode platformOptions,
        List<PostTarget> targets,
        Instant createdAt,
        Instant updatedAt) {
    public static final String QUEUED = "queued";
    public static final String PUBLISHING = "publishing";
    public static final String PUBLISHED = "published";
    public static final String PARTIALLY_FAILED = "partially_failed";
    public static final String FAILED = "failed";
    public static final String CANCELED = "canceled";

    /** {@code url} is HTTPS; {@code type} is {@link #VIDEO} or {@link #IMAGE}. */
    public record Media(String url, String type) {
        public static final String VIDEO = "video";
        public static final String IMAGE = "image";
    }

    @JsonIgnore
    public boolean isFinal() {
        return PUBLISHED.equals(status)
                || PARTIALLY_FAILED.equals(status)
                || FAILED.equals(status)
                || CANCELED.equals(status);
    }
}
