package dev.herald.common.wire;

import java.util.Map;

/**
 * Why a target failed: an error {@code code} (the API's own codes where one fits, such as
 * {@code usage_limit_exceeded} or {@code account_capacity_exceeded}, else a delivery code such as
 * {@code provider_error}), a human {@code message}, whether retrying the same post could succeed, and the
 * code's {@code details} ({@code {}} when none).
 */
public record TargetError(String code, String message, boolean retryable, Map<String, Object> details) {
    public static final String PROVIDER_ERROR = "provider_error";
    public static final String ACCOUNT_DISCONNECTED = "account_disconnected";
    /**
     * The account needed re-authorization when the target fell due and was not reconnected before the hold deadline
     * ({@code details.account_id}, {@code details.reconnect_url} when known).
     */
    public static final String ACCOUNT_REAUTH_REQUIRED = "account_reauth_required";

    public static final String PUBLISHER_UNAVAILABLE = "publisher_unavailable";
    public static final String ATTEMPTS_EXHAUSTED = "attempts_exhausted";
    /** A live publisher cannot tell whether the platform published the post, and will not risk a second one. */
    public static final String PUBLICATION_UNCONFIRMED = "publication_unconfirmed";
    /**
     * The post's media could not be fetched for upload: its URL is not https, resolves to a non-public address at
     * delivery time, gives no length, or its host refused or failed ({@code details.reason}).
     */
    public static final String MEDIA_UNAVAILABLE = "media_unavailable";
    /** The post's media is larger than Herald uploads ({@code details.size_bytes}, {@code details.max_bytes}). */
    public static final String MEDIA_TOO_LARGE = "media_too_large";
}
