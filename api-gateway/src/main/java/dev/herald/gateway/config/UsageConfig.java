package dev.herald.gateway.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** What limit errors tell the customer. */
@ConfigMapping(prefix = "herald.usage")
public interface UsageConfig {
    /** Where {@code usage_limit_exceeded} sends the customer to raise their allowance. */
    @WithDefault("https://herald.dev/pricing")
    String upgradeUrl();
}
