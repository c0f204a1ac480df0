package dev.herald.gateway.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** The hosted connect pages ({@code /connect/**}), which the gateway passes to accounts-service without an API key. */
@ConfigMapping(prefix = "herald.connect")
public interface HostedPagesConfig {
    /**
     * Requests per minute one client address may make to the pages (per gateway replica). An end user needs a
     * handful per account; the bound stops someone from guessing links or hammering a link in a loop.
     */
    @WithDefault("120")
    int perAddressPerMinute();
}
