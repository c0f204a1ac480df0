package dev.herald.fakes.model;

import java.time.Instant;

/**
 * A comment on something a fake platform published, before the platform shapes it: one of the item's seeded comments
 * from other people ({@code SeededComments}) or one posted through the fake.
 *
 * @param itemId     the platform's id of the post, media or video it is on
 * @param parentId   the top-level comment it replies to, or null for a top-level comment (the fakes keep replies one
 *                   level deep, as the platforms show them)
 * @param authorId   the author as the platform identifies them: Graph user or Page id, Instagram user id, YouTube
 *                   channel id, LinkedIn member or organization URN
 * @param authorName the name shown with it (Instagram: the username)
 * @param own        written by the account the fake's token acts for
 */
public record FakeComment(
        String id,
        String itemId,
        String parentId,
        String text,
        String authorId,
        String authorName,
        Instant createdAt,
        boolean own) {

    public boolean topLevel() {
        return parentId == null;
    }
}
