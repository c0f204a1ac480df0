package dev.herald.common.wire;

import dev.herald.common.events.AccountEvent;
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
    /**
     * The account events a receiver is told about (data {@link AccountEventData}): those that ask for or report a
     * reconnection. {@code account.connected} and {@code account.reassigned} stay internal: the customer made them.
     */
    public static final List<String> ACCOUNT =
            List.of(AccountEvent.REAUTH_REQUIRED, AccountEvent.DISCONNECTED, AccountEvent.RECONNECTED);
    /**
     * The post events, then {@code usage.threshold_reached} (made from {@code usage.reserved}), then the account
     * events (made from {@code account.events}).
     */
    public static final List<String> SUBSCRIBABLE = List.of(
            PostFinalizedEvent.PUBLISHED,
            PostFinalizedEvent.PARTIALLY_FAILED,
            PostFinalizedEvent.FAILED,
            PostFinalizedEvent.CANCELED,
            UsageThreshold.EVENT,
            AccountEvent.REAUTH_REQUIRED,
            AccountEvent.DISCONNECTED,
            AccountEvent.RECONNECTED);
    /** Sent by {@code POST /webhooks/{id}/test} to that endpoint only, whatever it subscribed to. */
    public static final String TEST = "webhook.test";

    private WebhookEventTypes() {}
}
