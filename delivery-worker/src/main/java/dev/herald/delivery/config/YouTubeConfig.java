package dev.herald.delivery.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** The YouTube publisher ({@code herald.publishers.youtube.*}): YouTube Data API v3 resumable uploads. */
@ConfigMapping(prefix = "herald.publishers.youtube")
public interface YouTubeConfig {

    /** The Data API's base ({@code /youtube/v3/...}). */
    @WithDefault("https://www.googleapis.com")
    String apiUrl();

    /** Where uploads start ({@code /upload/youtube/v3/videos}); the session URI YouTube answers says where bytes go. */
    @WithDefault("https://www.googleapis.com")
    String uploadUrl();

    /** How often one attempt resumes a broken upload (each time from the offset YouTube confirms) before it gives up. */
    @WithDefault("3")
    int resumes();
}
