package dev.herald.accounts.provider.http;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;

/** A provider's answer: status and body text (never logged: bodies carry tokens). */
public record ProviderResponse(int status, String body) {
    public boolean ok() {
        return status >= 200 && status < 300;
    }

    /** The body as a JSON object, or an empty object when it is empty or not an object (an HTML error page). */
    public JsonObject json() {
        if (body == null || body.isBlank()) {
            return new JsonObject();
        }
        try {
            Object value = io.vertx.core.json.Json.decodeValue(body);
            return value instanceof JsonObject object ? object : new JsonObject();
        } catch (DecodeException e) {
            return new JsonObject();
        }
    }

    @Override
    public String toString() {
        return "ProviderResponse[status=" + status + "]";
    }
}
