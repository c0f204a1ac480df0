package dev.herald.posts.service;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Optional;

/** URLs a post may carry (media, links): absolute {@code https} with a host, at most 2048 characters. */
public final class HttpsUrls {
    public static final int MAX_LENGTH = 2048;

    private HttpsUrls() {
    }

    /** What is wrong with {@code url}, as the end of a sentence ("must be ..."), or empty when nothing is. */
    public static Optional<String> problem(String url) {
        if (url.length() > MAX_LENGTH) {
            return Optional.of("must be at most " + MAX_LENGTH + " characters");
        }
        try {
            URI uri = new URI(url);
            if (!"https".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null || uri.getHost().isEmpty()) {
                return Optional.of("must be an absolute https URL");
            }
        } catch (URISyntaxException e) {
            return Optional.of("must be an absolute https URL");
        }
        return Optional.empty();
    }
}
