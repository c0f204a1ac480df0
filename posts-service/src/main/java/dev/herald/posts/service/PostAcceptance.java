package dev.herald.posts.service;

import dev.herald.common.wire.Post;

/**
 * The answer to {@code POST /posts}: the post just accepted ({@code replayed} false, HTTP 202), or the stored
 * answer of an identical earlier request ({@code replayed} true, HTTP 200, its original body as JSON text).
 */
public record PostAcceptance(Post post, String replayedBody, boolean replayed) {
    static PostAcceptance accepted(Post post) {
        return new PostAcceptance(post, null, false);
    }

    static PostAcceptance replay(String body) {
        return new PostAcceptance(null, body, true);
    }
}
