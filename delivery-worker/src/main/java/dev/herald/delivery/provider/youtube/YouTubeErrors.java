package dev.herald.delivery.provider.youtube;

import com.fasterxml.jackson.databind.JsonNode;
import dev.herald.common.wire.TargetError;
import dev.herald.delivery.provider.PlatformAnswer;
import dev.herald.delivery.provider.PlatformResponses;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * YouTube's error answers ({@code {"error": {"code", "message", "errors": [{"reason", "domain"}]}}}) as
 * {@link PlatformAnswer}s: 401 a refused token; 429 and the rate and quota reasons retryable, with {@code Retry-After};
 * 5xx retryable; any other 4xx final with the reason as {@code provider_code}.
 */
final class YouTubeErrors {
    private static final Set<String> RATE_LIMITS =
            Set.of("quotaExceeded", "rateLimitExceeded", "userRateLimitExceeded");

    private YouTubeErrors() {}

    static String reason(JsonNode body) {
        JsonNode errors = body.path("error").path("errors");
        return errors.isArray() && !errors.isEmpty()
                ? errors.get(0).path("reason").asText(null)
                : null;
    }

    /**
     * {@code mayHaveCompleted}: whether the call could have finished the upload (a PUT of the last bytes): its 5xx is
     * then an unknown outcome, which the next attempt settles by asking the session.
     */
    static PlatformAnswer answer(
            int status, JsonNode body, Integer retryAfterSeconds, String what, boolean mayHaveCompleted) {
        String reason = reason(body);
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("provider_status", status);
        if (reason != null) {
            details.put("provider_code", reason);
        }
        String message = PlatformResponses.message(
                what, status, body.path("error").path("message").asText(null));
        if (status == 401) {
            return new PlatformAnswer.TokenRefused(
                    new TargetError(TargetError.PROVIDER_ERROR, message, false, details));
        }
        if (status == 429 || (reason != null && RATE_LIMITS.contains(reason))) {
            if (retryAfterSeconds != null) {
                details.put("retry_after_seconds", retryAfterSeconds);
            }
            return new PlatformAnswer.Refused(new TargetError(TargetError.PROVIDER_ERROR, message, true, details));
        }
        if (status >= 500) {
            if (retryAfterSeconds != null) {
                details.put("retry_after_seconds", retryAfterSeconds);
            }
            TargetError error = new TargetError(TargetError.PROVIDER_ERROR, message, true, details);
            return mayHaveCompleted ? new PlatformAnswer.Unknown(error) : new PlatformAnswer.Refused(error);
        }
        return new PlatformAnswer.Refused(new TargetError(TargetError.PROVIDER_ERROR, message, false, details));
    }

    /** A session that lapsed unfinished made no video: the next attempt uploads again. */
    static PlatformAnswer lapsed(int status) {
        return new PlatformAnswer.Refused(new TargetError(
                TargetError.PROVIDER_ERROR,
                "YouTube's upload session lapsed before the upload finished; the next attempt uploads again.",
                true,
                Map.of("provider_status", status)));
    }
}
