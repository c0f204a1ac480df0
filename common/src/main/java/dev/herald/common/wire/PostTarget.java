package dev.herald.common.wire;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;

/**
 * One destination of a post (spec section 2). {@code profileId} is the account's profile when the post was
 * accepted, kept after the account moves. {@code providerPostId}, {@code url} and {@code error} appear only
 * when the platform provided them. {@code completedAt} is set once the target is final.
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
}
