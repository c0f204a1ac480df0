package dev.herald.usage.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

@ConfigMapping(prefix = "herald.usage")
public interface UsageConfig {
    /** Where {@code 429 usage_limit_exceeded} sends the customer to raise their allowance. */
    @WithDefault("https://herald.dev/pricing")
    String upgradeUrl();

    /**
     * Catalog values to replace, for tests and benchmarks only (see {@code PlanCatalog#override}); env
     * {@code HERALD_USAGE_PLAN_OVERRIDES}. Never set in production: the catalog is a published price list.
     */
    java.util.Optional<String> planOverrides();
}
