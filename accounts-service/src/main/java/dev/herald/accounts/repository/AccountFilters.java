package dev.herald.accounts.repository;

import dev.herald.common.wire.Platform;

/**
 * The filters of {@code GET /accounts}; null means not filtered. {@code health} is one of {@code AccountHealth.STATUSES}
 * ({@code expiring} and {@code healthy} split the stored healthy accounts by their access's end, as {@code
 * AccountViews.health} does).
 */
public record AccountFilters(String profileId, Platform platform, String text, String health) {}
