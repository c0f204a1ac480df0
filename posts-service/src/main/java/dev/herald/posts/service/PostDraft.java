package dev.herald.posts.service;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.common.api.FieldError;
import dev.herald.common.wire.Post;
import java.time.Instant;
import java.util.List;

/**
 * A {@code POST /posts} body as read, with the problems found in its shape so far. Rules that need the
 * accounts (platform limits, options, connection) add theirs before anything is refused, so one 422 names
 * every failing field. {@code accountIds} holds the ids that could be read, at their positions in the
 * request (null where an element was not a string).
 */
public record PostDraft(
        String text,
        List<String> accountIds,
        Post.Media media,
        Instant scheduledAt,
        ObjectNode platformOptions,
        List<FieldError> errors) {}
