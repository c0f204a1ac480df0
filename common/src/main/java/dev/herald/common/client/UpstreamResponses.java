package dev.herald.common.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import jakarta.ws.rs.core.Response;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/** Reads another Herald service's answers: the {@code data} of a success, or its error envelope as an ApiException. */
public final class UpstreamResponses {
    private UpstreamResponses() {}

    public static JsonNode data(ObjectMapper mapper, Response response, String service) {
        try {
            JsonNode envelope = mapper.readTree(response.readEntity(String.class));
            JsonNode data = envelope == null ? null : envelope.get("data");
            if (data == null) {
                throw new UpstreamUnavailable(service, "an answer without data");
            }
            return data;
        } catch (java.io.IOException | RuntimeException e) {
            if (e instanceof ApiException api) {
                throw api;
            }
            throw new UpstreamUnavailable(service, "an unreadable answer: " + e.getMessage());
        }
    }

    /**
     * The upstream's refusal, passed on with its code, message, details and Retry-After, when it is one of
     * {@code passedOn}; anything else means the upstream is not working.
     */
    public static ApiException refusal(ObjectMapper mapper, Response response, String service, ErrorCode... passedOn) {
        JsonNode error;
        try {
            JsonNode envelope = mapper.readTree(response.readEntity(String.class));
            error = envelope == null ? null : envelope.get("error");
        } catch (java.io.IOException | RuntimeException e) {
            error = null;
        }
        if (error != null) {
            String code = error.path("code").asText();
            for (ErrorCode known : Arrays.asList(passedOn)) {
                if (known.code().equals(code) && known.httpStatus() == response.getStatus()) {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> details = error.hasNonNull("details")
                            ? mapper.convertValue(error.get("details"), LinkedHashMap.class)
                            : Map.of();
                    String retryAfter = response.getHeaderString("Retry-After");
                    return new ApiException(
                            known,
                            error.path("message").asText(),
                            details,
                            retryAfter == null ? Map.of() : Map.of("Retry-After", retryAfter));
                }
            }
        }
        return new UpstreamUnavailable(service, "answered " + response.getStatus());
    }
}
