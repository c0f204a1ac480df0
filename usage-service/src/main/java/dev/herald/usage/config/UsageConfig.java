package dev.herald.usage.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

@ConfigMapping(prefix = "herald.usage")
public interface UsageConfig {
    /** Where {@code 429 usage_limit_exceeded} sends the customer to raise their allowance. */
    @WithDefault("https://herald.dev/pricing")
    String upgradeUrl();
}
