package dev.herald.common.messaging;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** How long a consumer remembers the events it applied (its {@code processed_events}), to skip them when redelivered. */
@ConfigMapping(prefix = "herald.processed-events")
public interface ProcessedEventsConfig {
    /** Whether the service consumes events, fixed at build time: only then is {@link ProcessedEventRetentionJob} a bean. */
    @WithDefault("false")
    boolean enabled();

    /**
     * Longer than any redelivery can come: the topics keep a week (Kafka's default and the production values), so a
     * consumer group reset to the earliest record, or an outbox republished within its retention, only brings events
     * still remembered. Raise it with the topics' {@code retention.ms}.
     */
    @WithDefault("P8D")
    Duration retention();

    /** How often remembered events older than {@link #retention()} are forgotten. */
    @WithDefault("PT10M")
    Duration purgeInterval();
}
