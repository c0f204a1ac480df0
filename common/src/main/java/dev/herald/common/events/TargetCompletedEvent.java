package dev.herald.common.events;

import dev.herald.common.auth.Mode;
import dev.herald.common.wire.TargetError;
import java.time.Instant;

/**
 * The delivery of one target ended, on {@link Topics#TARGET_COMPLETED} keyed by post id. {@code status} is
 * {@code published} (with the provider's post id and url when it gave them), {@code failed} (with
 * {@code error}) or {@code uncertain}; or {@code queued} (with {@code error} {@code account_reauth_required}, no
 * {@code completedAt}) when the worker holds the target until its account is reconnected, which is not an end.
 * {@code attempts} counts the delivery attempts made. usage-service consumes the reservation of a published target in
 * the period of {@code completedAt} and releases a failed one; an uncertain or queued one keeps it. Consumers
 * deduplicate by {@code event_id}.
 */
public record TargetCompletedEvent(
        String eventId,
        String type,
        Instant occurredAt,
        String workspaceId,
        Mode mode,
        String postId,
        String accountId,
        String reservationId,
        String status,
        int attempts,
        String providerPostId,
        String url,
        TargetError error,
        Instant completedAt) {
    public static final String TYPE = "target.completed";
}
