package dev.herald.delivery.provider;

import dev.herald.common.net.PlatformAnswerUnreadable;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.TargetError;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What Herald makes of a platform answer it cannot trust (OWASP API10): one it could not read, and post ids and
 * permalinks it will not store, put in webhooks or show. An unreadable answer or an unsafe post id ends the target
 * {@code provider_error}, not retryable: the platform accepted the call, so the post may exist, and another attempt
 * could post it twice. The error names the platform and what was wrong, never the answer itself. An unsafe permalink
 * is dropped: the post is published, and Herald shows no link rather than that one.
 */
public final class UntrustedAnswers {
    /** Longer than any platform's post id (LinkedIn's URNs are the longest, under 64 characters). */
    public static final int MAX_POST_ID_LENGTH = 256;

    public static final int MAX_URL_LENGTH = 2048;

    private UntrustedAnswers() {}

    /** A successful answer over the size cap, not JSON or of the wrong shape. */
    public static TargetError unreadable(Platform platform, PlatformAnswerUnreadable unreadable) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("platform", platform.wireName());
        details.putAll(unreadable.details());
        return error(platform, "its answer could not be used: " + unreadable.description(), details);
    }

    /** Why {@code providerPostId} may not be kept, as the target's error; empty when it may. */
    public static Optional<TargetError> unsafePostId(Platform platform, String providerPostId) {
        String problem = postIdProblem(providerPostId);
        if (problem == null) {
            return Optional.empty();
        }
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("platform", platform.wireName());
        details.put("reason", "unsafe_post_id");
        details.put("problem", problem);
        return Optional.of(error(platform, "the post id it answered " + problem, details));
    }

    /**
     * The link as it may be kept and shown, or null: a link that is not an absolute https URL (a {@code javascript:}
     * one), or too long, is dropped. The post is published all the same, so the target is, without a link.
     */
    public static String safeUrl(String url) {
        return urlProblem(url) == null ? url : null;
    }

    /** Null when the id may be kept (none is fine: some answers carry only a link). */
    static String postIdProblem(String id) {
        if (id == null) {
            return null;
        }
        if (id.isEmpty()) {
            return "is empty";
        }
        if (id.length() > MAX_POST_ID_LENGTH) {
            return "is longer than " + MAX_POST_ID_LENGTH + " characters";
        }
        return id.chars().allMatch(c -> c > 0x20 && c < 0x7f) ? null : "has characters other than printable ASCII";
    }

    /** Null when the link may be kept: an absolute https URL with a host, printable ASCII, at most 2048 characters. */
    static String urlProblem(String url) {
        if (url == null) {
            return null;
        }
        if (url.length() > MAX_URL_LENGTH) {
            return "is longer than " + MAX_URL_LENGTH + " characters";
        }
        if (!url.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
            return "has characters other than printable ASCII";
        }
        try {
            URI uri = new URI(url);
            if (!"https".equalsIgnoreCase(uri.getScheme())) {
                return "is not an https URL";
            }
            if (uri.getHost() == null || uri.getRawUserInfo() != null) {
                return "has no host, or has user information";
            }
            return null;
        } catch (URISyntaxException e) {
            return "is not a URL";
        }
    }

    private static TargetError error(Platform platform, String what, Map<String, Object> details) {
        return new TargetError(
                TargetError.PROVIDER_ERROR,
                platform.displayName() + " accepted the call, but " + what
                        + ". The post may have been published: check " + platform.displayName()
                        + " before posting again.",
                false,
                details);
    }
}
