package dev.herald.webhooks.model;

import dev.herald.common.events.PostFinalizedEvent;
import java.util.List;

/** The event names an endpoint can subscribe to (spec section 6), and the test event. */
public final class EventTypes {
    /** In the spec's order. */
    public static final List<String> SUBSCRIBABLE = List.of(
            PostFinalizedEvent.PUBLISHED,
            PostFinalizedEvent.PARTIALLY_FAILED,
            PostFinalizedEvent.FAILED,
            PostFinalizedEvent.CANCELED);
    /** Sent by {@code POST /webhooks/{id}/test} to that endpoint only, whatever it subscribed to. */
    public static final String TEST = "webhook.test";

    private EventTypes() {}
}
