package dev.herald.common.outbox;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** The outbox of every service that writes events: how often it is relayed, and how long sent events are kept. */
@ConfigMapping(prefix = "herald.outbox")
public interface OutboxConfig {
    /** Whether the service has an outbox, fixed at build time: only then is {@link OutboxRelayJob} a bean. */
    @WithDefault("false")
    boolean enabled();

    /**
     * How often the relay looks for unpublished events, besides being woken after commits that wrote some. A
     * Vert.x timer, not {@code @Scheduled}: Quarkus's simple scheduler checks its triggers once a second, so an
     * {@code every} below one second runs once a second.
     */
    @WithDefault("PT0.2S")
    Duration pollInterval();

    /**
     * How long a published event stays in the outbox before it is deleted: the window in which a lost or rebuilt
     * Kafka can be refilled from the outboxes (docs/operations.md, "Backup and restore"). Cover the time you need
     * to notice such a loss.
     */
    @WithDefault("P1D")
    Duration retention();

    /** How often published events older than {@link #retention()} are deleted. */
    @WithDefault("PT1M")
    Duration purgeInterval();
}
