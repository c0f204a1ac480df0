package dev.herald.common.events;

import dev.herald.common.auth.Mode;
import dev.herald.common.wire.Post;
import java.time.Instant;

/**
 * A post reached a final status, on {@link Topics#POST_FINALIZED} keyed by post id. {@code type} is the
 * webhook event name ({@link #PUBLISHED}, {@link #PARTIALLY_FAILED}, {@link #FAILED}, {@link #CANCELED});
 * {@code post} is the post with its targets as it is now. Consumers deduplicate by {@code event_id}.
 */
public record PostFinalizedEvent(
        String eventId, String type, Instant occurredAt, String workspaceId, Mode mode, Post post) {
    public static final String PUBLISHED = "post.published";
    public static final String PARTIALLY_FAILED = "post.partially_failed";
    public static final String FAILED = "post.failed";
    public static final String CANCELED = "post.canceled";

    /** The event name for a post's final status. */
    public static String typeFor(String postStatus) {
        return switch (postStatus) {
            case Post.PUBLISHED -> PUBLISHED;
            case Post.PARTIALLY_FAILED -> PARTIALLY_FAILED;
            case Post.FAILED -> FAILED;
            case Post.CANCELED -> CANCELED;
            default -> throw new IllegalArgumentException("post status " + postStatus + " is not final");
        };
    }
}
