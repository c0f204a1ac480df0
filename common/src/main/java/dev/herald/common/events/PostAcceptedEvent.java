package dev.herald.common.events;

import dev.herald.common.auth.Mode;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.Post;
import java.time.Instant;
import java.util.List;

/**
 * A post handed to delivery (when accepted, or when its scheduled time came), on {@link Topics#POST_ACCEPTED}
 * keyed by post id. {@code deliveries} says, per target, what the worker needs beyond the post: the account's
 * platform and username as they were at acceptance, and the publication reservation the target holds.
 * Consumers deduplicate by {@code event_id} (and the worker by post and account).
 */
public record PostAcceptedEvent(
        String eventId,
        String type,
        Instant occurredAt,
        String workspaceId,
        Mode mode,
        Post post,
        List<Delivery> deliveries) {
    public static final String TYPE = "post.accepted";

    public record Delivery(String accountId, Platform platform, String accountUsername, String reservationId) {}
}
