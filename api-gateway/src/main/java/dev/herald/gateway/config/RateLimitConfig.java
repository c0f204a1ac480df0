package dev.herald.gateway.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Limits the gateway applies on its own; tenants' limits come from their plans (usage-service). */
@ConfigMapping(prefix = "herald.rate-limit")
public interface RateLimitConfig {
    /** Requests per minute per client address that carry no valid credential. */
    @WithDefault("60")
    int anonymousPerMinute();

    /**
     * API keys the admin API and the dashboard may create per workspace and mode in a rolling hour (OWASP API6: a
     * script minting keys); more are {@code 429 rate_limit_exceeded} with {@code Retry-After}. 0 turns the cap off.
     */
    @WithDefault("20")
    int apiKeysPerHour();
}
