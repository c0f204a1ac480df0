package dev.herald.posts.provider;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Set;

/**
 * Meta's Graph API answers, as Facebook's and Instagram's comment APIs give them
 * (https://developers.facebook.com/docs/graph-api/guides/error-handling/): {@code {"error": {"code", "message"}}};
 * code 190 or HTTP 401 is a refused token, the rate limits (4, 17, 32, 341, 613, 80001-80014, or HTTP 429) are the
 * platform's, anything else a failure with Graph's code. Times look like {@code 2017-08-31T18:10:30+0000}.
 */
final class GraphErrors {
    private static final Set<Integer> RATE_LIMITS = Set.of(4, 17, 32, 341, 613);
    private static final DateTimeFormatter GRAPH_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssXX");

    private GraphErrors() {}

    static PlatformFailures.PlatformError read(int status, JsonNode body) {
        JsonNode error = body.path("error");
        Integer code = error.path("code").isNumber() ? error.get("code").asInt() : null;
        String message = error.path("message").asText("");
        String providerCode = code == null ? null : String.valueOf(code);
        if (status == 401 || (code != null && code == 190)) {
            return new PlatformFailures.PlatformError(PlatformFailures.Kind.TOKEN_REFUSED, providerCode, message);
        }
        if (status == 429 || (code != null && (RATE_LIMITS.contains(code) || (code >= 80001 && code <= 80014)))) {
            return new PlatformFailures.PlatformError(PlatformFailures.Kind.RATE_LIMITED, providerCode, message);
        }
        return new PlatformFailures.PlatformError(PlatformFailures.Kind.FAILED, providerCode, message);
    }

    /** A Graph time; {@code fallback} when it is missing or unreadable (the comment is kept all the same). */
    static Instant time(JsonNode value, Instant fallback) {
        if (!value.isTextual()) {
            return fallback;
        }
        try {
            return OffsetDateTime.parse(value.asText(), GRAPH_TIME).toInstant();
        } catch (DateTimeParseException e) {
            try {
                return OffsetDateTime.parse(value.asText()).toInstant();
            } catch (DateTimeParseException again) {
                return fallback;
            }
        }
    }
}
