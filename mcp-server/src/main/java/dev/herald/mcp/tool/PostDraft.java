package dev.herald.mcp.tool;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;

/**
 * A post as {@code create_post} and {@code validate_post} take it, flattened for an agent: the first comment is its
 * text alone. {@link #body()} is the {@code POST /posts} body; a field not given is left out, so the API's own default
 * applies and its validation (every failing field at once) speaks for the whole post.
 */
public record PostDraft(
        String text,
        List<String> accountIds,
        List<MediaItem> media,
        String scheduledAt,
        Map<String, Object> platformOptions,
        String firstComment) {

    public JsonObject body() {
        JsonObject body = new JsonObject();
        body.put("text", text == null ? "" : text);
        body.put("account_ids", new JsonArray(accountIds == null ? List.of() : List.copyOf(accountIds)));
        if (media != null && !media.isEmpty()) {
            JsonArray items = new JsonArray();
            media.forEach(
                    item -> items.add(new JsonObject().put("url", item.url()).put("type", item.type())));
            body.put("media", items);
        }
        if (given(scheduledAt)) {
            body.put("scheduled_at", scheduledAt);
        }
        if (platformOptions != null && !platformOptions.isEmpty()) {
            body.put("platform_options", new JsonObject(platformOptions));
        }
        if (given(firstComment)) {
            body.put("first_comment", new JsonObject().put("text", firstComment));
        }
        return body;
    }

    /** Agents often send an empty string for an optional argument they mean to leave out. */
    static boolean given(String value) {
        return value != null && !value.isEmpty();
    }
}
