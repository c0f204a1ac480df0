package dev.herald.delivery.provider.linkedin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.herald.common.wire.TargetError;
import dev.herald.delivery.provider.PlatformAnswer;
import dev.herald.delivery.provider.PlatformResponses;
import jakarta.ws.rs.core.Response;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * LinkedIn's error answers as {@link TargetError}s and {@link PlatformAnswer}s: 429 and 5xx retryable, other 4xx
 * final, 401 a refused token; LinkedIn's {@code serviceErrorCode} is {@code provider_code}.
 */
final class LinkedInErrors {

    private LinkedInErrors() {}

    /** An answer before the post call: nothing was created, so a refusal (a 401 a refused token) whatever the status. */
    static PlatformAnswer refusal(int status, Response response, JsonNode body, String what) {
        if (status == 401) {
            return new PlatformAnswer.TokenRefused(new TargetError(
                    TargetError.PROVIDER_ERROR,
                    "LinkedIn refused the access token (HTTP 401), also after it was refreshed.",
                    false,
                    details(status, body)));
        }
        return new PlatformAnswer.Refused(error(status, response, body, what));
    }

    /** 429 and 5xx are worth another attempt; other refusals are LinkedIn's final word on this post. */
    static TargetError error(int status, Response response, JsonNode body, String what) {
        Map<String, Object> details = details(status, body);
        Integer retryAfter = PlatformResponses.retryAfterSeconds(response);
        if (status == 429 && retryAfter != null) {
            details.put("retry_after_seconds", retryAfter);
        }
        String message = body.path("message").asText("");
        return new TargetError(
                TargetError.PROVIDER_ERROR,
                PlatformResponses.message(what, status, message),
                status == 429 || status >= 500,
                details);
    }

    static Map<String, Object> details(int status, JsonNode body) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("provider_status", status);
        if (body.hasNonNull("serviceErrorCode")) {
            details.put("provider_code", body.get("serviceErrorCode").asText());
        }
        return details;
    }
}
