package dev.herald.common.api;

/** {@code { error: { code, message, details }, request_id }}: the body of every error response. */
public record ErrorEnvelope(ApiError error, String requestId) {}
