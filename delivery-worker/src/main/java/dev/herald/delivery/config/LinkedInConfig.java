package dev.herald.delivery.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

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
}
