package dev.herald.common.wire;

import java.util.Map;

/**
 * Why a target failed: an error {@code code} (the API's own codes where one fits, such as
 * {@code usage_limit_exceeded} or {@code account_capacity_exceeded}, else a delivery code such as
 * {@code provider_error}), a human {@code message} (what the platform said, in plain words, where it said
 * something), whether retrying the same post could succeed, the code's {@code details} ({@code {}} when none), and
 * what kind of problem it is ({@code category}) with what the customer can do about it ({@code action}).
 *
 * <p>A platform's publisher sets category and action from its table of the platform's documented error codes
 * ({@link #as}); every other error gets its code's default ({@link #defaultCategory}, {@link #defaultAction}).
 */
public record TargetError(
        String code, String message, boolean retryable, Map<String, Object> details, String category, String action) {
    public static final String CATEGORY_AUTH = "auth";
    public static final String CATEGORY_CONTENT = "content";
    public static final String CATEGORY_MEDIA = "media";
    public static final String CATEGORY_RATE_LIMIT = "rate_limit";
    public static final String CATEGORY_PLATFORM = "platform";
    public static final String CATEGORY_NETWORK = "network";

    public static final String ACTION_RECONNECT = "reconnect";
    public static final String ACTION_EDIT_CONTENT = "edit_content";
    public static final String ACTION_REPLACE_MEDIA = "replace_media";
    public static final String ACTION_RETRY_LATER = "retry_later";
    public static final String ACTION_CONTACT_SUPPORT = "contact_support";

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
     * Herald could not deliver the target within its bound (the worker's watchdog found its handover, retry or lease
     * overdue, and the platform shows no publication): retryable, category {@code platform}, action
     * {@code retry_later} ({@code details.platform}, {@code details.late_seconds}).
     */
    public static final String DELIVERY_TIMEOUT = "delivery_timeout";
    /**
     * The post's media could not be fetched for upload: its URL is not https, resolves to a non-public address at
     * delivery time, gives no length, or its host refused or failed ({@code details.reason}).
     */
    public static final String MEDIA_UNAVAILABLE = "media_unavailable";
    /** The post's media is larger than Herald uploads ({@code details.size_bytes}, {@code details.max_bytes}). */
    public static final String MEDIA_TOO_LARGE = "media_too_large";

    /** Events written before category and action existed read back with their code's defaults. */
    public TargetError {
        details = details == null ? Map.of() : details;
        category = category != null ? category : defaultCategory(code, retryable);
        action = action != null ? action : defaultAction(code, retryable);
    }

    /** An error with its code's default category and action. */
    public TargetError(String code, String message, boolean retryable, Map<String, Object> details) {
        this(code, message, retryable, details, null, null);
    }

    /** This error filed under a platform's own {@code category} and {@code action} for it. */
    public TargetError as(String category, String action) {
        return new TargetError(code, message, retryable, details, category, action);
    }

    /** The category of a Herald code when no platform table gave one. */
    public static String defaultCategory(String code, boolean retryable) {
        return switch (code == null ? "" : code) {
            case ACCOUNT_DISCONNECTED, ACCOUNT_REAUTH_REQUIRED -> CATEGORY_AUTH;
            case MEDIA_UNAVAILABLE, MEDIA_TOO_LARGE -> CATEGORY_MEDIA;
            case "usage_limit_exceeded", "account_capacity_exceeded", "rate_limited" -> CATEGORY_RATE_LIMIT;
            case "validation_failed" -> CATEGORY_CONTENT;
            default -> CATEGORY_PLATFORM;
        };
    }

    /** What the customer can do about a Herald code when no platform table said. */
    public static String defaultAction(String code, boolean retryable) {
        return switch (code == null ? "" : code) {
            case ACCOUNT_DISCONNECTED, ACCOUNT_REAUTH_REQUIRED -> ACTION_RECONNECT;
            // A media host that failed for now (a 5xx, 429 or 408) may answer later; one that refused it will not.
            case MEDIA_UNAVAILABLE -> retryable ? ACTION_RETRY_LATER : ACTION_REPLACE_MEDIA;
            case MEDIA_TOO_LARGE -> ACTION_REPLACE_MEDIA;
            case "validation_failed" -> ACTION_EDIT_CONTENT;
            // The plan's publications for the period are used up: the next period, or a larger plan, has room.
            case "usage_limit_exceeded" -> ACTION_RETRY_LATER;
            case PUBLICATION_UNCONFIRMED, "account_capacity_exceeded" -> ACTION_CONTACT_SUPPORT;
            default -> retryable ? ACTION_RETRY_LATER : ACTION_CONTACT_SUPPORT;
        };
    }
}
