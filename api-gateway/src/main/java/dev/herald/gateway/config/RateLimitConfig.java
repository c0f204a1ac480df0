package dev.herald.gateway.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Limits the gateway applies on its own; tenants' limits come from their plans (usage-service). */
@ConfigMapping(prefix = "herald.rate-limit")
public interface RateLimitConfig {
    /** Requests per minute per client address that carry no valid credential. */
    @WithDefault("60")
    int anonymousPerMinute();
}
