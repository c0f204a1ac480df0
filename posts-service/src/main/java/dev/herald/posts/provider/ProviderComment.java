package dev.herald.posts.provider;

import java.time.Instant;

/**
 * A comment as a platform reported it. {@code parentProviderId} is the platform's id of the comment it replies to
 * (null for a comment on the post itself); {@code fromAccount} is true when the account itself wrote it.
 */
public record ProviderComment(
        String providerId,
        String parentProviderId,
        String text,
        String authorName,
        String authorUsername,
        boolean fromAccount,
        Instant createdAt) {}
