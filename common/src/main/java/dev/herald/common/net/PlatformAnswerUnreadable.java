package dev.herald.common.net;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A platform answered a successful status with a body Herald will not read or cannot use: over the size cap
 * ({@link PlatformAnswerLimit}), not JSON, or JSON of another shape than an object. The platform took the call, so
 * what it did is unknown to Herald; the body itself is never kept (it is untrusted and may be anything).
 */
public final class PlatformAnswerUnreadable extends RuntimeException {
    public static final String TOO_LARGE = "answer_too_large";
    public static final String NOT_JSON = "answer_not_json";
    public static final String NOT_AN_OBJECT = "answer_not_an_object";

    private final String reason;
    private final int status;
    private final Map<String, Object> details;

    public PlatformAnswerUnreadable(String reason, String description, int status, Map<String, Object> details) {
        super(description, null, false, false);
        this.reason = reason;
        this.status = status;
        this.details = details;
    }

    public static PlatformAnswerUnreadable tooLarge(int status, long maxBytes) {
        return new PlatformAnswerUnreadable(
                TOO_LARGE,
                "its answer was over the " + maxBytes + "-byte limit and was not read",
                status,
                Map.of("limit_bytes", maxBytes));
    }

    /** What is wrong, as the end of a sentence about the platform ("... its answer was not JSON"). */
    public String description() {
        return getMessage();
    }

    public String reason() {
        return reason;
    }

    public int status() {
        return status;
    }

    /** What a target's error carries: the reason, the platform's status and the reason's own facts; never the body. */
    public Map<String, Object> details() {
        Map<String, Object> all = new LinkedHashMap<>();
        all.put("reason", reason);
        all.put("provider_status", status);
        all.putAll(details);
        return all;
    }

    /** The unreadable answer behind {@code failure} (a REST client wraps what its filters throw), or null. */
    public static PlatformAnswerUnreadable in(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof PlatformAnswerUnreadable unreadable) {
                return unreadable;
            }
        }
        return null;
    }
}
