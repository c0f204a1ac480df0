package dev.herald.mcp.tool;

import dev.herald.mcp.client.GatewayRequest;
import io.vertx.core.json.JsonObject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * Each tool's arguments as the public API request it makes (one request per call): the tools hold no logic of their
 * own, so what an agent can do and what it is refused are exactly the API's.
 */
final class ToolRequests {
    /** Marks the keys this server generates, so a request log shows which posts came from an agent's first try. */
    static final String GENERATED_KEY_PREFIX = "mcp-";

    private ToolRequests() {}

    static GatewayRequest listProfiles(String q, Integer limit, String cursor) {
        return GatewayRequest.get("/profiles", query("q", q, "limit", limit, "cursor", cursor));
    }

    static GatewayRequest listAccounts(String profileId, String platform, String health, Integer limit, String cursor) {
        return GatewayRequest.get(
                "/accounts",
                query(
                        "profile_id",
                        profileId,
                        "platform",
                        platform,
                        "health",
                        health,
                        "limit",
                        limit,
                        "cursor",
                        cursor));
    }

    static GatewayRequest validatePost(PostDraft draft) {
        return GatewayRequest.post("/posts/validate", draft.body(), null);
    }

    /**
     * {@code POST /posts} with the agent's Idempotency-Key, or a new one: an agent that retries after a lost answer
     * passes the key it used (the answer says which), and gets the post created the first time instead of a second.
     */
    static GatewayRequest createPost(PostDraft draft, String idempotencyKey) {
        String key = PostDraft.given(idempotencyKey) ? idempotencyKey : GENERATED_KEY_PREFIX + UUID.randomUUID();
        return GatewayRequest.post("/posts", draft.body(), key);
    }

    static GatewayRequest getPost(String postId) {
        return GatewayRequest.get("/posts/" + segment(postId), Map.of());
    }

    static GatewayRequest listComments(String postId, String accountId, Integer limit, String cursor) {
        return GatewayRequest.get(
                "/comments", query("post_id", postId, "account_id", accountId, "limit", limit, "cursor", cursor));
    }

    static GatewayRequest replyToComment(String commentId, String text) {
        return GatewayRequest.post(
                "/comments", new JsonObject().put("comment_id", commentId).put("text", text), null);
    }

    static GatewayRequest getUsage() {
        return GatewayRequest.get("/usage", Map.of());
    }

    /** Name and value pairs, in order; an argument not given (null or empty) is not sent. */
    static Map<String, String> query(Object... namesAndValues) {
        Map<String, String> query = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            Object value = namesAndValues[i + 1];
            if (value != null && !value.toString().isEmpty()) {
                query.put((String) namesAndValues[i], value.toString());
            }
        }
        return query;
    }

    /**
     * An id as one path segment: encoded, so "pst_1/../../usage" stays one (unknown) id that the gateway refuses instead
     * of a path to another route.
     */
    static String segment(String id) {
        return URLEncoder.encode(id == null ? "" : id, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
