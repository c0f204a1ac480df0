package dev.herald.posts.service;

import dev.herald.common.net.PublicUrls;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Optional;

/** URLs a post may carry (media, links): absolute {@code https} with a host, at most 2048 characters. */
public final class HttpsUrls {
    public static final int MAX_LENGTH = 2048;

    private HttpsUrls() {}

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
            boolean scheme = "https".equalsIgnoreCase(uri.getScheme())
                    || (allowHttp && "http".equalsIgnoreCase(uri.getScheme()));
            if (!scheme || uri.getHost() == null || uri.getHost().isEmpty()) {
                return Optional.of(rule);
            }
        } catch (URISyntaxException e) {
            return Optional.of(rule);
        }
        return Optional.empty();
    }

    /**
     * As {@link #problem(String, boolean)}, for a media URL, which Herald fetches itself: also the form delivery's
     * SSRF guard ({@link PublicUrls}) requires (no user information, no fragment, a port from 1 to 65535), so a post
     * that delivery could only fail with {@code media_unavailable} is refused when it is created.
     */
    public static Optional<String> mediaProblem(String url, boolean allowHttp) {
        return problem(url, allowHttp).or(() -> new PublicUrls(allowHttp, NO_LOOKUP).formProblem(url));
    }

    /** The form check never resolves a name. */
    private static final PublicUrls.Resolver NO_LOOKUP = host -> {
        throw new UnknownHostException(host);
    };
}
