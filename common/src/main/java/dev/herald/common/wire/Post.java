package dev.herald.common.wire;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.common.auth.Mode;
import java.time.Instant;
import java.util.List;

/**
 * A post as the API shows it (spec section 2). {@code status} is {@link #QUEUED} until the post is handed to
 * delivery ({@link #PUBLISHING}), then one of the final statuses. {@code media}, {@code platformOptions} and
 * {@code firstComment} echo what was accepted ({@code null}, {@code {}} and {@code null} when not given); a
 * {@code first_comment} in a platform's options overrides the post's for that platform's targets.
 */
public record Post(
        String id,
        String text,
        String status,
        Mode mode,
        PostMedia media,
        Instant scheduledAt,
        ObjectNode platformOptions,
        FirstComment firstComment,
        String seriesId,
        List<PostTarget> targets,
        Instant createdAt,
        Instant updatedAt) {
    public static final String QUEUED = "queued";
    public static final String PUBLISHING = "publishing";
    public static final String PUBLISHED = "published";
    public static final String PARTIALLY_FAILED = "partially_failed";
    public static final String FAILED = "failed";
    public static final String CANCELED = "canceled";

    /**
     * {@code url} is HTTPS; {@code type} is {@link #VIDEO}, {@link #IMAGE} or {@link #DOCUMENT} (a PDF, posted as a
     * LinkedIn document post only).
     */
    public record Media(String url, String type) {
        public static final String VIDEO = "video";
        public static final String IMAGE = "image";
        public static final String DOCUMENT = "document";
    }

    /**
     * A comment Herald posts on each target as the account, right after the target publishes (where the platform has a
     * comment API); each target reports its outcome in {@link PostTarget#firstComment}.
     */
    public record FirstComment(String text) {}

    @JsonIgnore
    public boolean isFinal() {
        return PUBLISHED.equals(status)
                || PARTIALLY_FAILED.equals(status)
                || FAILED.equals(status)
                || CANCELED.equals(status);
    }
}
