package dev.herald.common.wire;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import java.util.List;

/**
 * accounts-service's {@code POST /internal/accounts/lookup} ({@code {"ids": [...]}}, at most 100): the
 * accounts of the caller's workspace and mode among {@code ids}, whatever their status, each with what
 * posts-service validates a post against. Ids of other tenants or unknown ones are simply absent.
 * {@code publishingOptions} is present for TikTok accounts only (deterministic for test accounts, the
 * provider's creator info for live ones). {@code reconnectUrl} is present when the account's health is broken
 * ({@link AccountHealth#broken()}): the hosted link that reconnects it, which a refusal passes on to the customer.
 */
public record AccountForPosting(
        Account account,
        @JsonInclude(JsonInclude.Include.NON_NULL) TikTokPublishingOptions publishingOptions,
        @JsonInclude(JsonInclude.Include.NON_NULL) String reconnectUrl) {
    public static final int MAX_IDS = 100;

    /**
     * The request body. {@code scheduledAt} (optional) is the post's scheduled time: accounts-service checks the live
     * accounts' grants shortly before it, so a broken connection is known before the post is due.
     */
    public record Lookup(
            List<String> ids,
            @JsonInclude(JsonInclude.Include.NON_NULL) Instant scheduledAt) {
        public Lookup(List<String> ids) {
            this(ids, null);
        }
    }
}
