package dev.herald.common.scheduling;

import io.smallrye.config.WithDefault;
import java.time.Duration;

/**
 * How cached analytics stay fresh (a read answers the cache while fresh; a refresher reads tracked numbers again
 * before they go stale, so customers' reads stay free), the same settings in posts-service ({@code herald.analytics.*})
 * and accounts-service ({@code herald.accounts.analytics.*}), whose configuration mappings extend this one.
 */
public interface AnalyticsRefreshSettings {

    /** Numbers read this recently are answered from the cache, free of the monthly API request allowance. */
    @WithDefault("15m")
    Duration freshness();

    /** How often the refresher looks for numbers that are due. */
    @WithDefault("1m")
    Duration refreshInterval();

    /** How long after a read the refresher reads again: shorter than freshness, so tracked reads stay free. */
    @WithDefault("10m")
    Duration refreshEvery();

    /** How many a refresher pass claims. */
    @WithDefault("50")
    int refreshBatch();

    /** How long a claim keeps other replicas off; a replica that died mid-pass lets go after it. */
    @WithDefault("2m")
    Duration claimLease();
}
