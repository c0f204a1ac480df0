package dev.herald.mcp.tool;

import dev.herald.mcp.client.GatewayAnswer;
import dev.herald.mcp.client.GatewayRequest;
import io.quarkiverse.mcp.server.TextContent;
import io.quarkiverse.mcp.server.ToolResponse;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * The gateway's answer as a tool result. A success is the API's JSON as it came. A refusal is a tool error (the MCP way
 * to tell the model a call failed, so it can correct itself) whose text starts with Herald's error code and message
 * ({@code insufficient_scope: This API key lacks the posts:write scope.}) followed by the whole error envelope, whose
 * {@code details} (the failing fields, the missing scope, a reconnect link) are what the model needs to fix its call.
 * A request sent with an Idempotency-Key says which, so a retry can reuse it.
 */
final class ToolResults {
    private ToolResults() {}

    static ToolResponse of(GatewayRequest request, GatewayAnswer answer) {
        List<TextContent> content = new ArrayList<>();
        if (answer.succeeded()) {
            content.add(new TextContent(answer.body()));
        } else {
            JsonObject error = errorOf(answer);
            content.add(new TextContent(
                    error != null
                            ? error.getValue("code") + ": " + error.getValue("message") + "\n" + answer.body()
                            : "unexpected_response: Herald answered HTTP " + answer.status()
                                    + " without an error envelope."));
        }
        if (request.idempotencyKey() != null) {
            content.add(new TextContent("idempotency_key: " + request.idempotencyKey()));
        }
        return new ToolResponse(!answer.succeeded(), content);
    }

    /** The gateway could not be reached or did not answer in time: retrying later is the model's only move. */
    static ToolResponse unreachable(GatewayRequest request, Throwable failure) {
        String retry = request.idempotencyKey() == null
                ? "Retry shortly."
                : "Retry shortly with idempotency_key " + request.idempotencyKey()
                        + ": the post may have been created, and the same key cannot create it twice.";
        return new ToolResponse(
                true,
                List.of(new TextContent(
                        "service_unavailable: Herald's API did not answer (" + failure.getMessage() + "). " + retry)));
    }

    /** The envelope's {@code error} with a string code, or null (a proxy's HTML page, an empty body). */
    private static JsonObject errorOf(GatewayAnswer answer) {
        JsonObject json = answer.json();
        Object error = json == null ? null : json.getValue("error");
        return error instanceof JsonObject object && object.getValue("code") instanceof String ? object : null;
    }
}
