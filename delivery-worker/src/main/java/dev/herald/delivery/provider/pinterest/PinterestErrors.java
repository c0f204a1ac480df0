package dev.herald.delivery.provider.pinterest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.herald.common.wire.TargetError;
import dev.herald.delivery.provider.PlatformAnswer;
import dev.herald.delivery.provider.PlatformResponses;
import jakarta.ws.rs.core.Response;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Pinterest's error answers ({@code {"code": <int>, "message": "..."}}) as {@link PlatformAnswer}s: 401 a refused
 * token, 429 retryable, 5xx (and a 2xx without what was asked) an unknown outcome, other 4xx final; the code is
 * {@code provider_code}.
 */
final class PinterestErrors {

    private PinterestErrors() {}

    static PlatformAnswer answer(int status, Response response, JsonNode body, String what) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("provider_status", status);
        if (body.path("code").isNumber()) {
            details.put("provider_code", String.valueOf(body.get("code").asInt()));
        }
        Integer retryAfter = PlatformResponses.retryAfterSeconds(response);
        if (status == 429 && retryAfter != null) {
            details.put("retry_after_seconds", retryAfter);
        }
        String message = body.path("message").asText("");
        String text = PlatformResponses.message(what, status, message);
        if (status == 401) {
            return new PlatformAnswer.TokenRefused(new TargetError(TargetError.PROVIDER_ERROR, text, false, details));
        }
        if (status == 429) {
            return new PlatformAnswer.Refused(new TargetError(TargetError.PROVIDER_ERROR, text, true, details));
        }
        if (status >= 500 || status / 100 == 2) {
            return new PlatformAnswer.Unknown(new TargetError(TargetError.PROVIDER_ERROR, text, true, details));
        }
        return new PlatformAnswer.Refused(new TargetError(TargetError.PROVIDER_ERROR, text, false, details));
    }
}
