package dev.herald.common.wire;

/** Why analytics show no (fresh) numbers: the {@code reason} of post and account analytics. */
public final class AnalyticsReason {
    /** The target is still queued or publishing (status {@code pending}). */
    public static final String NOT_PUBLISHED_YET = "not_published_yet";

    public static final String TARGET_FAILED = "target_failed";
    public static final String TARGET_CANCELED = "target_canceled";
    /** YouTube without analytics consent for the account's current authorization (status {@code redacted}). */
    public static final String CONSENT_REQUIRED = "analytics_consent_required";
    /** Herald does not read this platform's analytics live (yet). */
    public static final String PLATFORM_NOT_SUPPORTED = "platform_not_supported";

    public static final String ACCOUNT_DISCONNECTED = "account_disconnected";
    /**
     * The account's grant lacks a scope the platform's analytics need (it was connected before Herald asked for it, or
     * the owner unticked it): reconnecting it through a connect session grants it.
     */
    public static final String RECONNECT_REQUIRED = "reconnect_required";
    /** The platform refused or failed the read, or did not answer. */
    public static final String PROVIDER_ERROR = "provider_error";
    /** The platform is limiting Herald's calls for now. */
    public static final String RATE_LIMITED = "rate_limited";

    private AnalyticsReason() {}
}
