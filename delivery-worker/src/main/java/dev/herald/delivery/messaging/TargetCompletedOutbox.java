package dev.herald.delivery.messaging;

import dev.herald.common.events.TargetCompletedEvent;
import dev.herald.common.events.Topics;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.common.outbox.OutboxWriter;
import dev.herald.common.wire.TargetError;
import dev.herald.delivery.model.LeasedDelivery;
import java.time.Instant;

/**
 * The outbox row of a {@code target.completed}, keyed by post id (so a post's targets stay in order for
 * posts-service). The worker has no Hibernate session for common's {@code OutboxWriter}: the row is written by the
 * same statement that makes the delivery final ({@code DeliveryStatements.complete} and {@code settle}).
 */
public final class TargetCompletedOutbox {
    private TargetCompletedOutbox() {}

    /** {@code traceParent}: the delivery's trace, sent on with the event (null when it has none). */
    public static OutboxWriter.Entry entry(TargetCompletedEvent event, String traceParent) {
        return new OutboxWriter.Entry(event.eventId(), Topics.TARGET_COMPLETED, event.postId(), event, traceParent);
    }

    /** The row of a settlement made outside an attempt (a reconciler's, the watchdog's): final as of {@code now}. */
    public static OutboxWriter.Entry finalEntry(
            LeasedDelivery delivery, String status, String providerPostId, String url, TargetError error, Instant now) {
        return entry(
                event(delivery, status, providerPostId, url, error, delivery.attempts(), now, now),
                delivery.traceParent());
    }

    /** The delivery's {@code target.completed} ({@code completedAt} null while it is not final). */
    public static TargetCompletedEvent event(
            LeasedDelivery delivery,
            String status,
            String providerPostId,
            String url,
            TargetError error,
            int attempts,
            Instant completedAt,
            Instant now) {
        return new TargetCompletedEvent(
                ResourceIds.newId(IdPrefix.EVENT),
                TargetCompletedEvent.TYPE,
                now,
                delivery.workspaceId(),
                delivery.mode(),
                delivery.postId(),
                delivery.accountId(),
                delivery.reservationId(),
                status,
                attempts,
                providerPostId,
                url,
                error,
                completedAt);
    }
}
