package dev.herald.posts.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/**
 * Live comments ({@code herald.comments.*}). The platforms' base URLs are handed to their REST
 * clients in application.properties ({@code quarkus.rest-client.<platform>-comments.url}), so tests and
 * {@code ./herald up --fake-providers} point them at local fakes.
 */
@ConfigMapping(prefix = "herald.comments")
public interface CommentsConfig {

    /** A target whose comments were read from its platform this recently answers the stored copy, free. */
    @WithDefault("60s")
    Duration freshness();

    /** How many of an account's latest published posts {@code GET /comments?account_id=} reads from the platform. */
    @WithDefault("5")
    int accountPosts();

    /** Graph API for Facebook Pages, version included. */
    @WithDefault("https://graph.facebook.com/v24.0")
    String facebookApiUrl();

    /** Instagram API with Instagram Login, version included. */
    @WithDefault("https://graph.instagram.com/v24.0")
    String instagramApiUrl();

    /** YouTube Data API v3's host. */
    @WithDefault("https://www.googleapis.com")
    String youtubeApiUrl();

    /** LinkedIn's API host. */
    @WithDefault("https://api.linkedin.com")
    String linkedinApiUrl();

    /** The {@code LinkedIn-Version} header (YYYYMM), as the LinkedIn publisher sends it. */
    @WithDefault("202601")
    String linkedinApiVersion();
}
