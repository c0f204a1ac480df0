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
        return problem(url, false);
    }

    /** As {@link #problem(String)}; {@code allowHttp} (local runs' media, {@code herald.media.allow-private-urls}) admits http. */
    public static Optional<String> problem(String url, boolean allowHttp) {
        if (url.length() > MAX_LENGTH) {
            return Optional.of("must be at most " + MAX_LENGTH + " characters");
        }
        String rule = allowHttp ? "must be an absolute http or https URL" : "must be an absolute https URL";
        try {
            URI uri = new URI(url);
            boolean scheme = "https".equalsIgnoreCase(uri.getScheme()) || (allowHttp && "http".equalsIgnoreCase(uri.getScheme()));
            if (!scheme || uri.getHost() == null || uri.getHost().isEmpty()) {
                return Optional.of(rule);
            }
        } catch (URISyntaxException e) {
            return Optional.of(rule);
        }
        return Optional.empty();
    }
}
