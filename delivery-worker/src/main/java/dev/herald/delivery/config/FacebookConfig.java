package dev.herald.delivery.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * The Facebook Pages publisher ({@code herald.publishers.facebook.*}). The Graph base URL, version included, is the
 * REST client's ({@code quarkus.rest-client.facebook-graph.url}, from {@code herald.publishers.facebook.api-url}).
 */
@ConfigMapping(prefix = "herald.publishers.facebook")
public interface FacebookConfig {

    /** Graph's base URL with its version (set in application.properties, which hands it to the REST client). */
    String apiUrl();

    /**
     * Meta's upload host for Reels and video stories, with the Graph version (the REST client's
     * {@code quarkus.rest-client.facebook-upload.url}).
     */
    String uploadUrl();

    /** How many of the Page's latest posts or videos a repeated attempt looks through for an unknown call's post. */
    @WithDefault("25")
    int reconcileWindow();
}
