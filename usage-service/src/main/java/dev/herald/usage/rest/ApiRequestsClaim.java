package dev.herald.usage.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Base64;

/**
 * Reads the gateway's count of API requests in the current period, claim {@value #CLAIM} of the internal
 * JWT. Only call it on a request whose token {@code InternalCallerFilter} has already verified: this reads
 * the payload without checking the signature again. A missing or unreadable claim counts as 0.
 */
public final class ApiRequestsClaim {
    public static final String CLAIM = "api_requests_used";
    private static final String BEARER = "Bearer ";
    private static final ObjectMapper JSON = new ObjectMapper();

    private ApiRequestsClaim() {}

    public static long read(String authorization) {
        if (authorization == null || !authorization.startsWith(BEARER)) {
            return 0;
        }
        String[] parts = authorization.substring(BEARER.length()).split("\\.");
        if (parts.length < 2) {
            return 0;
        }
        try {
            JsonNode claims = JSON.readTree(Base64.getUrlDecoder().decode(parts[1]));
            JsonNode used = claims.get(CLAIM);
            return used != null && used.canConvertToExactIntegral() && used.canConvertToLong() && used.asLong() >= 0
                    ? used.asLong()
                    : 0;
        } catch (Exception e) {
            return 0;
        }
    }
}
