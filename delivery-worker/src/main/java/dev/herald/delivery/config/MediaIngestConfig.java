package dev.herald.delivery.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Media ingest: fetching a post's media from its URL and streaming it to a platform ({@code herald.media.*}). */
@ConfigMapping(prefix = "herald.media")
public interface MediaIngestConfig {

    /**
     * Local runs and tests only: admits plain http sources and non-public addresses (the SSRF rules off), as
     * webhooks-service's {@code allow-private-urls}. Off in every real deployment.
     */
    @WithDefault("false")
    boolean allowPrivateUrls();

    /** The largest source Herald uploads (4 GiB); larger ones fail {@code media_too_large} before any byte moves. */
    @WithDefault("4294967296")
    long maxBytes();

    /** How long a destination's ingest slot is held without renewal; a crashed worker's slot lapses after this. */
    @WithDefault("PT60S")
    Duration slotLease();

    /** When every ingest slot of the workspace is held, the delivery is looked at again after this. */
    @WithDefault("PT5S")
    Duration slotWait();

    /** Connecting to the source or the platform, and any pause without bytes while streaming, at most this long. */
    @WithDefault("PT30S")
    Duration idleTimeout();
}
