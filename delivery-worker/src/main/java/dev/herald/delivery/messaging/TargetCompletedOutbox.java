package dev.herald.delivery.messaging;

import dev.herald.common.events.TargetCompletedEvent;
import dev.herald.common.events.Topics;
import dev.herald.common.outbox.OutboxWriter;

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
}
