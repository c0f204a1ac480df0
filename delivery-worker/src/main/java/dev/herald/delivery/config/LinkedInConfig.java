package dev.herald.delivery.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/**
 * The LinkedIn publisher ({@code herald.publishers.linkedin.*}). The base URL is the REST client's
 * ({@code quarkus.rest-client.linkedin-api.url}, from {@code herald.publishers.linkedin.api-url}), so tests and
 * {@code ./herald up --fake-providers} point it at a local fake.
 */
@ConfigMapping(prefix = "herald.publishers.linkedin")
public interface LinkedInConfig {

    /** LinkedIn's API host (set in application.properties, which hands it to the REST client). */
    String apiUrl();

    /** The {@code LinkedIn-Version} header (YYYYMM): the versioned API's contract the publisher was written against. */
    @WithDefault("202601")
    String apiVersion();

    /** How many of the author's latest posts a repeated attempt looks through for the one an unknown call may have made. */
    @WithDefault("20")
    int reconcileWindow();

    /**
     * How long after the upload, and then between checks, a video's status is asked for ({@code AVAILABLE} before
     * its post is made): each check is an attempt's round trip, and LinkedIn takes a minute or more.
     */
    @WithDefault("PT20S")
    Duration videoCheckInterval();

    /** A video LinkedIn is still processing this long after its upload is given up and uploaded anew. */
    @WithDefault("PT30M")
    Duration videoProcessingDeadline();
}
