package dev.herald.delivery.provider.media;

import dev.herald.delivery.config.MediaIngestConfig;
import java.time.Duration;

/** {@link MediaIngestConfig} for tests that build the media classes without Quarkus. */
record TestMediaConfig(boolean allowPrivateUrls, long maxBytes) implements MediaIngestConfig {
    @Override
    public Duration slotLease() {
        return Duration.ofSeconds(60);
    }

    @Override
    public Duration slotWait() {
        return Duration.ofSeconds(5);
    }

    @Override
    public Duration idleTimeout() {
        return Duration.ofSeconds(30);
    }
}
