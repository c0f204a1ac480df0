package dev.herald.common.api;

import java.util.Map;

/** The {@code error} member of the error envelope. {@code details} is always an object, never null. */
public record ApiError(String code, String message, Map<String, Object> details) {
    public ApiError {
        details = details == null ? Map.of() : details;
    }
}
