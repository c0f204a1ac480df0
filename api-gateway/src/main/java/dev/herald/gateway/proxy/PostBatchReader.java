package dev.herald.gateway.proxy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.common.api.ApiException;
import dev.herald.common.validation.JsonBody;
import dev.herald.common.wire.PostBatchItem;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the body of {@code POST /posts/batch}, {@code { "posts": [ { "idempotency_key": "...", ...a POST /posts body
 * } ] }}, into its items, each a key and the body its {@code POST /posts} gets. Only the batch's own shape is checked
 * here, all of it before any post is sent: a body that is no JSON object is {@code 400 invalid_request} (as
 * {@code POST /posts} answers), anything else wrong one {@code 422 validation_failed} listing every field
 * ({@code posts[3].idempotency_key}). What is inside a post is posts-service's to judge, item by item.
 */
final class PostBatchReader {
    static final String POSTS = "posts";
    static final String IDEMPOTENCY_KEY = "idempotency_key";
    /** As posts-service's {@code Idempotency-Key} header (DESIGN section 3). */
    static final int MAX_KEY_LENGTH = 255;

    /** One post of the batch: its key and the {@code POST /posts} body (the item without its key). */
    record Item(String idempotencyKey, ObjectNode post) {}

    private PostBatchReader() {}

    static List<Item> read(byte[] body, ObjectMapper mapper) {
        if (body.length == 0) {
            throw ApiException.invalidRequest("A JSON object body is required.");
        }
        JsonNode json;
        try {
            json = mapper.readTree(body);
        } catch (StreamConstraintsException e) {
            throw ApiException.invalidRequest("The JSON body is nested too deeply.");
        } catch (JsonProcessingException e) {
            throw ApiException.invalidRequest("The request body is not valid JSON.");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        JsonBody batch = JsonBody.of(json, Set.of(POSTS));
        JsonNode posts = json.get(POSTS);
        List<Item> items = holdsPosts(posts, batch) ? items(posts, batch) : List.of();
        batch.validate();
        return items;
    }

    /** Whether {@code posts} is an array of 1 to 100 elements; if not, the batch says why. */
    private static boolean holdsPosts(JsonNode posts, JsonBody batch) {
        if (posts == null || posts.isNull()) {
            batch.reject(
                    POSTS, "required", "posts is required: an array of 1 to " + PostBatchItem.MAX_POSTS + " posts.");
        } else if (!posts.isArray()) {
            batch.reject(POSTS, "invalid_type", "posts must be an array of posts.");
        } else if (posts.isEmpty()) {
            batch.reject(POSTS, "too_short", "posts must hold at least one post.");
        } else if (posts.size() > PostBatchItem.MAX_POSTS) {
            batch.reject(POSTS, "too_long", "posts must hold at most " + PostBatchItem.MAX_POSTS + " posts.");
        } else {
            return true;
        }
        return false;
    }

    /** The posts of a well-formed {@code posts} array; their problems go to the batch. */
    private static List<Item> items(JsonNode posts, JsonBody batch) {
        List<Item> items = new ArrayList<>(posts.size());
        Map<String, Integer> firstWithKey = new HashMap<>();
        for (int i = 0; i < posts.size(); i++) {
            String field = POSTS + "[" + i + "]";
            if (!(posts.get(i) instanceof ObjectNode post)) {
                batch.reject(
                        field,
                        "invalid_type",
                        field + " must be an object: a POST /posts body and its " + IDEMPOTENCY_KEY + ".");
                continue;
            }
            String key = key(post.remove(IDEMPOTENCY_KEY), field + "." + IDEMPOTENCY_KEY, batch);
            if (key != null) {
                Integer first = firstWithKey.putIfAbsent(key, i);
                if (first != null) {
                    batch.reject(
                            field + "." + IDEMPOTENCY_KEY,
                            "invalid_value",
                            field + "." + IDEMPOTENCY_KEY + " repeats the key of " + POSTS + "[" + first
                                    + "]: each post needs its own.");
                }
            }
            items.add(new Item(key, post));
        }
        return items;
    }

    /**
     * The rules of {@code POST /posts}'s {@code Idempotency-Key} header: 1 to 255 printable ASCII characters. A header
     * cannot start or end with a space (HTTP drops them), so a key in a body cannot either: sent on, it would become
     * another post's key.
     */
    private static String key(JsonNode value, String field, JsonBody batch) {
        if (value == null || value.isNull()) {
            batch.reject(field, "required", field + " is required: a unique value per post, reused only to retry it.");
            return null;
        }
        if (!value.isTextual()) {
            batch.reject(field, "invalid_type", field + " must be a string.");
            return null;
        }
        String key = value.textValue();
        if (key.isEmpty()) {
            batch.reject(field, "too_short", field + " must not be empty.");
        } else if (key.length() > MAX_KEY_LENGTH) {
            batch.reject(field, "too_long", field + " must be at most " + MAX_KEY_LENGTH + " characters.");
        } else if (!key.chars().allMatch(c -> c >= 0x20 && c <= 0x7e)
                || key.charAt(0) == ' '
                || key.charAt(key.length() - 1) == ' ') {
            batch.reject(
                    field,
                    "invalid_format",
                    field + " must be printable ASCII characters, neither starting nor ending with a space.");
        } else {
            return key;
        }
        return null;
    }
}
