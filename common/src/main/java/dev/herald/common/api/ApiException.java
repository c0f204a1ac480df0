package dev.herald.common.api;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A failure that has a place in the error catalogue. Thrown (or failed into a {@code Uni}) anywhere in a
 * service; the exception mappers turn it into the envelope with its status and headers.
 */
public class ApiException extends RuntimeException {
    /** At most this many field errors are listed in a {@code 422 validation_failed}; the rest are counted. */
    public static final int MAX_LISTED_ERRORS = 100;

    private final ErrorCode code;
    private final Map<String, Object> details;
    private final Map<String, String> headers;

    public ApiException(ErrorCode code, String message) {
        this(code, message, Map.of(), Map.of());
    }

    public ApiException(ErrorCode code, String message, Map<String, Object> details) {
        this(code, message, details, Map.of());
    }

    public ApiException(ErrorCode code, String message, Map<String, Object> details, Map<String, String> headers) {
        super(message, null, false, false);
        this.code = code;
        this.details = details == null ? Map.of() : details;
        this.headers = headers == null ? Map.of() : headers;
    }

    public static ApiException notFound(String what) {
        return new ApiException(ErrorCode.NOT_FOUND, "No such " + what + ".");
    }

    public static ApiException invalidRequest(String message) {
        return new ApiException(ErrorCode.INVALID_REQUEST, message);
    }

    /** A query parameter that cannot be used as sent. */
    public static ApiException invalidParameter(String parameter, String message) {
        return new ApiException(ErrorCode.INVALID_REQUEST, message, Map.of("parameter", parameter));
    }

    public static ApiException validationFailed(List<FieldError> errors) {
        if (errors.size() > MAX_LISTED_ERRORS) {
            // A body of a few hundred KiB can hold tens of thousands of bad fields; an answer listing them all would be
            // ten times its size. The first ones are listed and the rest counted.
            return new ApiException(
                    ErrorCode.VALIDATION_FAILED,
                    "The request has " + errors.size() + " invalid fields; the first " + MAX_LISTED_ERRORS
                            + " are listed.",
                    Map.of(
                            "errors",
                            List.copyOf(errors.subList(0, MAX_LISTED_ERRORS)),
                            "omitted_errors",
                            errors.size() - MAX_LISTED_ERRORS));
        }
        return new ApiException(
                ErrorCode.VALIDATION_FAILED,
                errors.size() == 1 ? errors.get(0).message() : "The request has " + errors.size() + " invalid fields.",
                Map.of("errors", List.copyOf(errors)));
    }

    /** This refusal with one more detail ({@code key} replaced when present). */
    public ApiException withDetail(String key, Object value) {
        Map<String, Object> more = new LinkedHashMap<>(details);
        more.put(key, value);
        return new ApiException(code, getMessage(), more, headers);
    }

    public ErrorCode code() {
        return code;
    }

    public Map<String, Object> details() {
        return details;
    }

    public Map<String, String> headers() {
        return headers;
    }

    public ApiError toApiError() {
        return new ApiError(code.code(), getMessage(), details);
    }
}
