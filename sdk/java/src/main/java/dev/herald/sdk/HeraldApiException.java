package dev.herald.sdk;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.time.Duration;
import java.util.Optional;

/**
 * An error answer of the API ({@code { error: { code, message, details }, request_id }}), thrown by every call made
 * through {@link Herald} as one subclass per family of {@code error.code}, so a caller catches what it can act on:
 * {@link InvalidRequest} (fix the request), {@link Authentication}, {@link PermissionDenied}, {@link NotFound},
 * {@link Conflict} (the resource's state refuses it), {@link RateLimited} (wait {@link #retryAfter()}),
 * {@link ServiceUnavailable} (try again later); any other code is this class itself. Unchecked: the generated
 * methods' checked {@code ApiException} is left for failures to reach the API at all.
 */
public class HeraldApiException extends RuntimeException {
    private final int status;
    private final String code;
    private final JsonNode details;
    private final String requestId;
    private final Duration retryAfter;

    HeraldApiException(
            int status, String code, String message, JsonNode details, String requestId, Duration retryAfter) {
        super(status + " " + code + ": " + message + (requestId == null ? "" : " (request " + requestId + ")"));
        this.status = status;
        this.code = code;
        this.details = details == null ? JsonNodeFactory.instance.objectNode() : details;
        this.requestId = requestId;
        this.retryAfter = retryAfter;
    }

    /**
     * The exception for an error answer: its HTTP status, its parsed body (null or not an error envelope: the code is
     * then {@code http_<status>}) and its {@code Retry-After} (null when absent).
     */
    static HeraldApiException of(int status, JsonNode body, Duration retryAfter) {
        JsonNode error = body == null ? null : body.path("error");
        String code = error != null && error.path("code").isTextual()
                ? error.path("code").asText()
                : "http_" + status;
        String message = error != null && error.path("message").isTextual()
                ? error.path("message").asText()
                : "HTTP " + status;
        JsonNode details = error == null ? null : error.get("details");
        String requestId = body != null && body.path("request_id").isTextual()
                ? body.path("request_id").asText()
                : null;
        return switch (code) {
            case "invalid_request",
                    "invalid_cursor",
                    "idempotency_key_required",
                    "validation_failed",
                    "payload_too_large",
                    "unsupported_media_type",
                    "method_not_allowed" -> new InvalidRequest(status, code, message, details, requestId, retryAfter);
            case "authentication_failed" -> new Authentication(status, code, message, details, requestId, retryAfter);
            case "insufficient_scope", "test_mode_only" ->
                new PermissionDenied(status, code, message, details, requestId, retryAfter);
            case "not_found" -> new NotFound(status, code, message, details, requestId, retryAfter);
            case "conflict",
                    "external_id_taken",
                    "account_has_pending_posts",
                    "profile_not_empty",
                    "post_not_cancelable",
                    "idempotency_key_in_use",
                    "idempotency_key_reused",
                    "account_limit_reached",
                    "account_capacity_exceeded",
                    "analytics_consent_not_required",
                    "account_reauth_required" -> new Conflict(status, code, message, details, requestId, retryAfter);
            case "rate_limit_exceeded", "usage_limit_exceeded" ->
                new RateLimited(status, code, message, details, requestId, retryAfter);
            case "service_unavailable" -> new ServiceUnavailable(status, code, message, details, requestId, retryAfter);
            default -> new HeraldApiException(status, code, message, details, requestId, retryAfter);
        };
    }

    /** The HTTP status. */
    public int status() {
        return status;
    }

    /** {@code error.code}, e.g. {@code validation_failed} (the error catalogue in the API reference lists them). */
    public String code() {
        return code;
    }

    /** {@code error.details} (an empty object when none): e.g. the field errors of {@code validation_failed}. */
    public JsonNode details() {
        return details;
    }

    /** The answer's {@code request_id}, to quote to the operator. */
    public String requestId() {
        return requestId;
    }

    /** The answer's {@code Retry-After} (429 and 503): how long to wait before trying again. */
    public Optional<Duration> retryAfter() {
        return Optional.ofNullable(retryAfter);
    }

    /** The request is wrong as sent: its syntax, fields, cursor or headers. */
    public static class InvalidRequest extends HeraldApiException {
        InvalidRequest(int status, String code, String message, JsonNode details, String id, Duration retryAfter) {
            super(status, code, message, details, id, retryAfter);
        }
    }

    /** The API key (or token) is missing, unknown, revoked or expired. */
    public static class Authentication extends HeraldApiException {
        Authentication(int status, String code, String message, JsonNode details, String id, Duration retryAfter) {
            super(status, code, message, details, id, retryAfter);
        }
    }

    /** The credential may not do this: a scope it lacks, or a test-mode-only operation in live mode. */
    public static class PermissionDenied extends HeraldApiException {
        PermissionDenied(int status, String code, String message, JsonNode details, String id, Duration retryAfter) {
            super(status, code, message, details, id, retryAfter);
        }
    }

    /** No such resource in the credential's workspace and mode. */
    public static class NotFound extends HeraldApiException {
        NotFound(int status, String code, String message, JsonNode details, String id, Duration retryAfter) {
            super(status, code, message, details, id, retryAfter);
        }
    }

    /** The resource's state, a plan's limit or an earlier use of the idempotency key refuses the request. */
    public static class Conflict extends HeraldApiException {
        Conflict(int status, String code, String message, JsonNode details, String id, Duration retryAfter) {
            super(status, code, message, details, id, retryAfter);
        }
    }

    /** The per-minute rate or a monthly allowance is spent; {@link #retryAfter()} says for how long. */
    public static class RateLimited extends HeraldApiException {
        RateLimited(int status, String code, String message, JsonNode details, String id, Duration retryAfter) {
            super(status, code, message, details, id, retryAfter);
        }
    }

    /** Herald could not reach one of its services for now; try again later. */
    public static class ServiceUnavailable extends HeraldApiException {
        ServiceUnavailable(int status, String code, String message, JsonNode details, String id, Duration retryAfter) {
            super(status, code, message, details, id, retryAfter);
        }
    }
}
