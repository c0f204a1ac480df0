package dev.herald.mcp.client;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;

/** The gateway's answer to a {@link GatewayRequest}: its status and body, as sent. */
public record GatewayAnswer(int status, String body) {
    public boolean succeeded() {
        return status >= 200 && status < 300;
    }

    /** The body as a JSON object, or null when it is none (an empty body, an HTML error page of a proxy in between). */
    public JsonObject json() {
        try {
            return body == null || body.isBlank() ? null : new JsonObject(body);
        } catch (DecodeException | ClassCastException e) {
            return null;
        }
    }
}
