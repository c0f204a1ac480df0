package dev.herald.posts.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/**
 * Post analytics ({@code herald.analytics.*}, decisions 151 to 156). The platforms' hosts are the comment readers'
 * ({@code herald.comments.*-api-url}), handed to the analytics REST clients in application.properties.
 */
@ConfigMapping(prefix = "herald.analytics")
public interface AnalyticsConfig {

    /** Numbers read this recently are answered from the cache, free of the monthly API request allowance. */
    @WithDefault("15m")
    Duration freshness();

    /** How often the refresher looks for targets whose numbers are due. */
    @WithDefault("1m")
    Duration refreshInterval();

    /** How long after a read the refresher reads a target again: shorter than freshness, so tracked reads stay free. */
    @WithDefault("10m")
    Duration refreshEvery();

    /** Targets published longer ago than this are no longer refreshed on a schedule (a read still refreshes them). */
    @WithDefault("30d")
    Duration trackFor();

    /** Targets one refresher pass claims. */
    @WithDefault("50")
    int refreshBatch();

    /** How long a claim keeps other replicas off a target; a replica that died mid-pass lets go after it. */
    @WithDefault("2m")
    Duration claimLease();

    /** Pinterest API v5's host (post analytics are read there; the comment readers have no Pinterest host). */
    @WithDefault("https://api.pinterest.com")
    String pinterestApiUrl();
}
