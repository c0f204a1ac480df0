package dev.herald.gateway.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.net.URI;
import java.time.Duration;

/** Where the gateway finds each service, and how long it waits for one. */
@ConfigMapping(prefix = "herald.services")
public interface ServicesConfig {
    Upstream profiles();

    Upstream accounts();

    Upstream posts();

    Upstream webhooks();

    Upstream usage();

    Upstream mcp();

    /** A service that does not accept the connection within this time is unavailable (503). */
    @WithDefault("PT2S")
    Duration connectTimeout();

    /** A service that sends nothing for this long is unavailable (503); the caller never hangs. */
    @WithDefault("PT30S")
    Duration idleTimeout();

    interface Upstream {
        URI url();
    }
}
