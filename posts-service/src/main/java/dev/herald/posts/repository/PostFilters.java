package dev.herald.posts.repository;

import dev.herald.common.wire.Platform;

/** The filters of {@code GET /posts}; null where absent. */
public record PostFilters(String status, Platform platform, String text, String accountId, String profileId) {}
