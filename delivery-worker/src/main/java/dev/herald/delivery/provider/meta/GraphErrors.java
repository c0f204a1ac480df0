package dev.herald.delivery.provider.meta;

import com.fasterxml.jackson.databind.JsonNode;
import dev.herald.common.wire.TargetError;
import dev.herald.delivery.provider.PlatformAnswer;
import dev.herald.delivery.provider.PlatformResponses;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Meta's Graph API errors ({@code {"error": {"code", "error_subcode", "message", "is_transient"}}}), as Facebook's
 * and Instagram's publishers read them (https://developers.facebook.com/docs/graph-api/guides/error-handling/):
 * code 190 or HTTP 401 is a refused token; rate limits (4, 17, 32, 341, 613, 80001-80014), 1, 2 and
 * {@code is_transient} are retryable and created nothing; a 5xx (or a success without the expected id) may have
 * created the post; anything else is final.
 */
public final class GraphErrors {
    private static final Set<Integer> RETRYABLE = Set.of(1, 2, 4, 17, 32, 341, 613);

    private GraphErrors() {}

    public static PlatformAnswer answer(int status, JsonNode body, String what) {
        JsonNode error = body.path("error");
        Integer code = error.path("code").isNumber() ? error.get("code").asInt() : null;
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("provider_status", status);
        if (code != null) {
            details.put("provider_code", String.valueOf(code));
        }
        if (error.path("error_subcode").isNumber()) {
            details.put(
                    "provider_subcode",
                    String.valueOf(error.get("error_subcode").asInt()));
        }
        String text =
                PlatformResponses.message(what, status, error.path("message").asText(""));
        if (status == 401 || (code != null && code == 190)) {
            return new PlatformAnswer.TokenRefused(new TargetError(TargetError.PROVIDER_ERROR, text, false, details));
        }
        boolean rateLimited = code != null && (RETRYABLE.contains(code) || (code >= 80001 && code <= 80014));
        if (rateLimited || error.path("is_transient").asBoolean(false) || status == 429) {
            return new PlatformAnswer.Refused(new TargetError(TargetError.PROVIDER_ERROR, text, true, details));
        }
        if (status >= 500 || status / 100 == 2) {
            // A 5xx, or a success without the expected id: the post may exist.
            return new PlatformAnswer.Unknown(new TargetError(TargetError.PROVIDER_ERROR, text, true, details));
        }
        return new PlatformAnswer.Refused(new TargetError(TargetError.PROVIDER_ERROR, text, false, details));
    }
}
