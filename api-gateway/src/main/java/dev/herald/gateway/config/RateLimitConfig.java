package dev.herald.gateway.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Per-minute limits until plans are read from usage-service. */
@ConfigMapping(prefix = "herald.rate-limit")
public interface RateLimitConfig {
    /** The free plan's per-minute limit: every workspace is on the free plan until plans exist. */
    @WithDefault("30")
    int defaultPerMinute();

    /** Requests per minute per client address that carry no valid credential. */
    @WithDefault("60")
    int anonymousPerMinute();
}
