package dev.herald.mcp.client;

import io.vertx.core.json.JsonObject;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One request of the public API that a tool makes: method, path below {@code /api/v1} (ids already encoded), query
 * parameters (none null), JSON body (null for none) and Idempotency-Key (null for none).
 */
public record GatewayRequest(
        String method, String path, Map<String, String> query, JsonObject body, String idempotencyKey) {
    public static GatewayRequest get(String path, Map<String, String> query) {
        return new GatewayRequest("GET", path, Collections.unmodifiableMap(new LinkedHashMap<>(query)), null, null);
    }

    public static GatewayRequest post(String path, JsonObject body, String idempotencyKey) {
        return new GatewayRequest("POST", path, Map.of(), body, idempotencyKey);
    }
}
