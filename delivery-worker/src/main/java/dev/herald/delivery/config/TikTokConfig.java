package dev.herald.delivery.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** The TikTok publisher ({@code herald.publishers.tiktok.*}): the Content Posting API's Direct Post. */
@ConfigMapping(prefix = "herald.publishers.tiktok")
public interface TikTokConfig {

    /** The Content Posting API's host ({@code /v2/post/publish/...}); the upload URL comes from TikTok's answer. */
    @WithDefault("https://open.tiktokapis.com")
    String apiUrl();

    /**
     * The chunk size of {@code FILE_UPLOAD}s larger than it, kept within TikTok's 5-64 MiB; a smaller file goes as one
     * chunk. Larger chunks mean fewer requests; the last chunk takes the trailing bytes (under twice this).
     */
    @WithDefault("67108864")
    long chunkSize();

    /**
     * How long after the upload, and then between checks, the post's status is fetched: each check is a delivery attempt
     * of its own that gives its turn back while TikTok processes the video (TikTok allows 30 status fetches a minute).
     */
    @WithDefault("PT30S")
    Duration checkInterval();

    /**
     * How long TikTok may process and moderate a post before the target fails {@code publication_unconfirmed}: TikTok
     * publishes on its own when done, so Herald never starts over (moderation can take hours, TikTok says).
     */
    @WithDefault("PT3H")
    Duration processingDeadline();
}
