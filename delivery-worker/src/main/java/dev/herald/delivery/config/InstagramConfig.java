package dev.herald.delivery.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/**
 * The Instagram publisher ({@code herald.publishers.instagram.*}). The base URL, version included, is the REST
 * client's ({@code quarkus.rest-client.instagram-graph.url}, from {@code herald.publishers.instagram.api-url}).
 */
@ConfigMapping(prefix = "herald.publishers.instagram")
public interface InstagramConfig {

    /** The Instagram Graph base URL with its version (set in application.properties). */
    String apiUrl();

    /** How often an image container's status is asked while Instagram fetches the image. */
    @WithDefault("PT1S")
    Duration statusInterval();

    /** How many times at most; a container still in progress after them is a retryable failure (it expires unused). */
    @WithDefault("8")
    int statusChecks();

    /**
     * How long after creating a Reels container (or a video story's, or a carousel's children with a video), and then
     * between checks, its status is asked: each check is a
     * delivery attempt of its own that gives its turn back while Instagram processes the video (a Reel takes a minute
     * or more, longer than one attempt).
     */
    @WithDefault("PT30S")
    Duration reelsCheckInterval();

    /** How long Instagram may process a Reels container before the target fails (retryable, with a new container). */
    @WithDefault("PT15M")
    Duration reelsProcessingDeadline();

    /** How many of the account's latest media a repeated attempt looks through for an unknown call's post. */
    @WithDefault("25")
    int reconcileWindow();
}
