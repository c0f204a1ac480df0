package dev.herald.posts.config;

import dev.herald.common.scheduling.AnalyticsRefreshSettings;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/**
 * Post analytics ({@code herald.analytics.*}): the refresh settings every analytics cache has,
 * and the tracking period. The platforms' hosts are the comment readers' ({@code herald.comments.*-api-url}), handed
 * to the analytics REST clients in application.properties, but for Pinterest's and TikTok's.
 */
@ConfigMapping(prefix = "herald.analytics")
public interface AnalyticsConfig extends AnalyticsRefreshSettings {

    /** Targets published longer ago than this are no longer refreshed on a schedule (a read still refreshes them). */
    @WithDefault("30d")
    Duration trackFor();

    /** Pinterest API v5's host (post analytics are read there; the comment readers have no Pinterest host). */
    @WithDefault("https://api.pinterest.com")
    String pinterestApiUrl();

    /** TikTok API v2's host (Query Videos; the comment readers have no TikTok host). */
    @WithDefault("https://open.tiktokapis.com")
    String tiktokApiUrl();
}
