package dev.herald.fakes.model;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * {@code POST /_fakes/{platform}/failures}: what to do to the next {@code times} (default 1) requests matching
 * {@code method} and {@code path} (a regex over the path below the platform prefix).
 *
 * @param status             overrides the kind's usual HTTP status
 * @param retryAfterSeconds  sent as {@code Retry-After} with a rate limit
 * @param delayMs            how late the answer comes ({@code delay}; with other kinds, added to them)
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record ArmFailureRequest(
        FailureKind kind,
        String method,
        String path,
        Integer times,
        Integer status,
        Integer retryAfterSeconds,
        Long delayMs) {}
