package dev.herald.webhooks.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;

/** How webhooks are accepted, signed, sent and retried ({@code herald.webhooks.*}); tests compress the times. */
@ConfigMapping(prefix = "herald.webhooks")
public interface WebhooksConfig {

    /**
     * Accept plain {@code http://} receivers and hosts that resolve to loopback, private, link-local or other
     * non-public addresses. Only for local runs ({@code ./herald up} sets it); never in production.
     */
    @WithDefault("false")
    boolean allowPrivateUrls();

    /**
     * The wait after each failed attempt (the n-th entry after the n-th failure), each scaled by a random factor
     * between 0.9 and 1.1; after the last one, one more attempt, then the delivery is {@code failed}.
     */
    @WithDefault("PT5S,PT5M,PT30M,PT2H,PT5H,PT10H,PT10H")
    List<Duration> retrySchedule();

    /** An attempt the receiver has not answered by then failed (connecting included). */
    @WithDefault("PT10S")
    Duration requestTimeout();

    /**
     * How long a claimed delivery belongs to this sender; longer than {@link #requestTimeout()}. A sender that
     * dies mid-attempt delays the delivery by at most this long.
     */
    @WithDefault("PT30S")
    Duration lease();

    /** How often the sender looks for due deliveries (it also looks at once when new ones commit). */
    @WithDefault("PT0.2S")
    Duration pollInterval();

    /** Deliveries claimed per look at most. */
    @WithDefault("500")
    int claimBatchSize();

    /** Attempts this sender runs at once at most, over all endpoints. */
    @WithDefault("1024")
    int maxInFlight();

    /**
     * Attempts in flight to one endpoint at most (across senders, and the connection pool per receiver), so a
     * slow receiver holds only its own share and never delays the others.
     */
    @WithDefault("16")
    int maxInFlightPerEndpoint();

    /** How long a rotated-out secret keeps signing beside the new one. */
    @WithDefault("PT24H")
    Duration previousSecretLifetime();

    /**
     * How long a final delivery record stays readable ({@code GET /deliveries}) and retryable after it last changed;
     * an event goes with its last delivery. Stripe keeps events for 30 days, and so do we by default.
     */
    @WithDefault("P30D")
    Duration retention();

    /** How often the records past {@link #retention()} are deleted. */
    @WithDefault("PT10M")
    Duration purgeInterval();
}
