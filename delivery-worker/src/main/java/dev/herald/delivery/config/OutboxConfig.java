package dev.herald.delivery.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

@ConfigMapping(prefix = "herald.outbox")
public interface OutboxConfig {
    /**
     * How often the relay looks for unpublished events, besides being woken after every final outcome. A
     * Vert.x timer, not {@code @Scheduled}: Quarkus's simple scheduler checks its triggers once a second, so
     * an {@code every} below one second runs once a second.
     */
    @WithDefault("PT0.2S")
    Duration pollInterval();
}
