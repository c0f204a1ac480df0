package dev.herald.common.wire;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import dev.herald.common.api.ApiError;

/**
 * One item of {@code POST /posts/batch}'s answer, in request order: {@code index} is the item's position (from 0),
 * {@code status} the HTTP status {@code POST /posts} would have answered for it alone (202 accepted, 200 an identical
 * replay, 4xx refused), with {@code post} (the post as {@code POST /posts} shows it) or {@code error} (the error
 * envelope's {@code error} member).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PostBatchItem(int index, int status, JsonNode post, ApiError error) {
    /** At most this many posts in one batch. */
    public static final int MAX_POSTS = 100;
}
