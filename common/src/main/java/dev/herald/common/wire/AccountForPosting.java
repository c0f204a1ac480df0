package dev.herald.common.wire;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * accounts-service's {@code POST /internal/accounts/lookup} ({@code {"ids": [...]}}, at most 100): the
 * accounts of the caller's workspace and mode among {@code ids}, whatever their status, each with what
 * posts-service validates a post against. Ids of other tenants or unknown ones are simply absent.
 * {@code publishingOptions} is present for TikTok accounts only (deterministic for test accounts, the
 * provider's creator info for live ones).
 */
public record AccountForPosting(
        Account account,
        @JsonInclude(JsonInclude.Include.NON_NULL) TikTokPublishingOptions publishingOptions) {
    public static final int MAX_IDS = 100;

    /** The request body. */
    public record Lookup(List<String> ids) {}
}
