package dev.herald.accounts.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Branding of the hosted connect page: how its logo is fetched. */
@ConfigMapping(prefix = "herald.branding")
public interface BrandingConfig {
    /**
     * Local runs and tests only: logo URLs may be plain http and point at loopback, private and other non-public
     * addresses (as {@code herald.media.allow-private-urls} for media). Off in every real deployment.
     */
    @WithDefault("false")
    boolean allowPrivateUrls();

    /** How long fetching a logo may take, connection to last byte; the PUT waits for it. */
    @WithDefault("PT10S")
    Duration fetchTimeout();
}
