package dev.herald.common.wire;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;

/**
 * One destination of a post (spec section 2). {@code profileId} is the account's profile when the post was
 * accepted, kept after the account moves. {@code providerPostId}, {@code url} and {@code error} appear only
 * when the platform provided them. {@code completedAt} is set once the target is final. {@code firstComment} appears
 * only when the post asked for a first comment on this target.
 */
public record PostTarget(
        String accountId,
        Platform platform,
        String profileId,
        String status,
        int attempts,
        @JsonInclude(JsonInclude.Include.NON_NULL) String providerPostId,
        @JsonInclude(JsonInclude.Include.NON_NULL) String url,
        @JsonInclude(JsonInclude.Include.NON_NULL) TargetError error,
        @JsonInclude(JsonInclude.Include.NON_NULL) FirstCommentStatus firstComment,
        Instant completedAt) {
    public static final String QUEUED = "queued";
    public static final String PUBLISHING = "publishing";
    public static final String PUBLISHED = "published";
    public static final String FAILED = "failed";
    public static final String CANCELED = "canceled";
    /** The provider's outcome is unknown; the target keeps its reservation until a reconciler settles it. */
    public static final String UNCERTAIN = "uncertain";

    @JsonIgnore
    public boolean isFinal() {
        return PUBLISHED.equals(status) || FAILED.equals(status) || CANCELED.equals(status);
    }

    /**
     * The first comment's outcome on one target: {@link #PENDING} until the target publishes and Herald has posted it,
     * then {@link #PUBLISHED} (with the platform's {@code commentId}) or {@link #FAILED} (with {@code error}; the
     * target stays published); {@link #NOT_SUPPORTED} where the target cannot take one.
     */
    public record FirstCommentStatus(
            String status,
            @JsonInclude(JsonInclude.Include.NON_NULL) String commentId,
            @JsonInclude(JsonInclude.Include.NON_NULL) TargetError error) {
        public static final String PENDING = "pending";
        public static final String PUBLISHED = "published";
        public static final String FAILED = "failed";
        public static final String NOT_SUPPORTED = "not_supported";
    }
}
