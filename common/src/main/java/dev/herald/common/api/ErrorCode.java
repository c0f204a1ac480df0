package dev.herald.common.api;

/**
 * Every error code Herald answers with, and the HTTP status it travels with. The catalogue is the
 * spec's section 7 plus DESIGN section 3; a code is never reused for a second meaning.
 */
public enum ErrorCode {
    INVALID_REQUEST(400, "invalid_request"),
    INVALID_CURSOR(400, "invalid_cursor"),
    IDEMPOTENCY_KEY_REQUIRED(400, "idempotency_key_required"),
    AUTHENTICATION_FAILED(401, "authentication_failed"),
    INSUFFICIENT_SCOPE(403, "insufficient_scope"),
    TEST_MODE_ONLY(403, "test_mode_only"),
    NOT_FOUND(404, "not_found"),
    METHOD_NOT_ALLOWED(405, "method_not_allowed"),
    CONFLICT(409, "conflict"),
    EXTERNAL_ID_TAKEN(409, "external_id_taken"),
    ACCOUNT_HAS_PENDING_POSTS(409, "account_has_pending_posts"),
    PROFILE_NOT_EMPTY(409, "profile_not_empty"),
    POST_NOT_CANCELABLE(409, "post_not_cancelable"),
    IDEMPOTENCY_KEY_IN_USE(409, "idempotency_key_in_use"),
    ACCOUNT_LIMIT_REACHED(409, "account_limit_reached"),
    ACCOUNT_CAPACITY_EXCEEDED(409, "account_capacity_exceeded"),
    ANALYTICS_CONSENT_NOT_REQUIRED(409, "analytics_consent_not_required"),
    CONNECT_SESSION_EXPIRED(410, "connect_session_expired"),
    CONNECT_SESSION_REVOKED(410, "connect_session_revoked"),
    PAYLOAD_TOO_LARGE(413, "payload_too_large"),
    UNSUPPORTED_MEDIA_TYPE(415, "unsupported_media_type"),
    VALIDATION_FAILED(422, "validation_failed"),
    IDEMPOTENCY_KEY_REUSED(422, "idempotency_key_reused"),
    PUBLISHING_OPTIONS_UNAVAILABLE(422, "publishing_options_unavailable"),
    COMMENTS_UNAVAILABLE(422, "comments_unavailable"),
    /** A post names an account whose health is reauth_required or disconnected (details: account_id, reconnect_url). */
    ACCOUNT_REAUTH_REQUIRED(422, "account_reauth_required"),
    USAGE_LIMIT_EXCEEDED(429, "usage_limit_exceeded"),
    RATE_LIMIT_EXCEEDED(429, "rate_limit_exceeded"),
    INTERNAL_ERROR(500, "internal_error"),
    PROVIDER_ERROR(502, "provider_error"),
    SERVICE_UNAVAILABLE(503, "service_unavailable");

    private final int httpStatus;
    private final String code;

    ErrorCode(int httpStatus, String code) {
        this.httpStatus = httpStatus;
        this.code = code;
    }

    public int httpStatus() {
        return httpStatus;
    }

    public String code() {
        return code;
    }

    /** The code a bare HTTP status stands for when nothing more specific is known. */
    public static ErrorCode forStatus(int status) {
        return switch (status) {
            case 400 -> INVALID_REQUEST;
            case 401 -> AUTHENTICATION_FAILED;
            case 403 -> INSUFFICIENT_SCOPE;
            case 404 -> NOT_FOUND;
            case 405 -> METHOD_NOT_ALLOWED;
            case 409 -> CONFLICT;
            case 413 -> PAYLOAD_TOO_LARGE;
            case 415 -> UNSUPPORTED_MEDIA_TYPE;
            case 422 -> VALIDATION_FAILED;
            case 502 -> PROVIDER_ERROR;
            case 503 -> SERVICE_UNAVAILABLE;
            default -> status >= 500 ? INTERNAL_ERROR : INVALID_REQUEST;
        };
    }
}
