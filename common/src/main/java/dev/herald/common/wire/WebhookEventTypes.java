package dev.herald.common.wire;

import dev.herald.common.events.PostFinalizedEvent;
import java.util.List;

/** The event names an endpoint can subscribe to (spec section 6, then Herald's own), and the test event. */
public final class WebhookEventTypes {
    /** The final states of a post, in the spec's order: what {@code post.finalized} carries. */
    public static final List<String> POST_FINALIZED = List.of(
            PostFinalizedEvent.PUBLISHED,
            PostFinalizedEvent.PARTIALLY_FAILED,
            PostFinalizedEvent.FAILED,
            PostFinalizedEvent.CANCELED);
    /** The post events, then {@code usage.threshold_reached} (made from {@code usage.reserved}). */
    public static final List<String> SUBSCRIBABLE = List.of(
            PostFinalizedEvent.PUBLISHED,
            PostFinalizedEvent.PARTIALLY_FAILED,
            PostFinalizedEvent.FAILED,
            PostFinalizedEvent.CANCELED,
            UsageThreshold.EVENT);
    /** Sent by {@code POST /webhooks/{id}/test} to that endpoint only, whatever it subscribed to. */
    public static final String TEST = "webhook.test";

    private WebhookEventTypes() {}
}
