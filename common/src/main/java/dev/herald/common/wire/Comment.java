package dev.herald.common.wire;

import java.time.Instant;

/**
 * A comment on a published post, or a reply to one ({@code parentId} set). {@code postId} is the Herald post
 * the comment is on, when Herald published it. {@code authorUsername} is the commenter's handle on the
 * platform; {@code fromAccount} is true for replies the account itself posted (through Herald or not).
 */
public record Comment(
        String id,
        String accountId,
        String postId,
        Platform platform,
        String parentId,
        String text,
        String authorName,
        String authorUsername,
        boolean fromAccount,
        Instant createdAt) {}
