package dev.herald.fakes.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.stream.Collectors;

/** What an armed failure does to the request it matches. */
public enum FailureKind {
    /** The platform's rate-limit error (HTTP 429 unless {@code status} says otherwise), with Retry-After when given. */
    RATE_LIMIT("rate_limit"),
    /** The platform's server error (HTTP 500 unless {@code status} says otherwise); nothing is done. */
    SERVER_ERROR("server_error"),
    /**
     * The platform refuses the request as it refuses what it will not take (HTTP 400 unless {@code status} says
     * otherwise, in the platform's error shape, not retryable); nothing is done. Comments, say, refused as spam.
     */
    REFUSE("refuse"),
    /** The request's access token expires now: this and later calls with it get the platform's 401; refresh works. */
    EXPIRED_TOKEN("expired_token"),
    /** The whole grant is revoked now: 401 for its access token and {@code invalid_grant} for its refresh token. */
    REVOKED_TOKEN("revoked_token"),
    /** The answer comes {@code delay_ms} late (a slow provider; a client with a shorter deadline times out). */
    DELAY("delay"),
    /**
     * The request is carried out, but the caller gets a proxy's timeout page (HTTP 504 unless {@code status}, not the
     * platform's error shape): the outcome is unknown to it.
     */
    LOST_RESPONSE("lost_response"),
    /**
     * An Instagram media container created by the request reports {@code status_code: ERROR}; a TikTok video post
     * initialized by it ends {@code FAILED} with {@code file_format_check_failed}.
     */
    PROCESSING_ERROR("processing_error"),
    /**
     * The request is carried out, and the answer (the platform's status unless {@code status}) has a 50 MiB body with
     * its {@code Content-Length}: a caller that reads it whole holds 50 MiB.
     */
    HUGE_ANSWER("huge_answer"),
    /** As {@link #HUGE_ANSWER}, sent chunked: no length to judge it by before reading. */
    HUGE_CHUNKED_ANSWER("huge_chunked_answer"),
    /** The request is carried out, and the answer's JSON is cut in half (malformed). */
    MALFORMED_ANSWER("malformed_answer"),
    /** The request is carried out, and the answer's top-level links (permalink, url, ...) are {@code javascript:} URLs. */
    UNSAFE_LINK("unsafe_link"),
    /** The request is carried out, and the answer's top-level {@code id} is 10,000 characters long. */
    UNSAFE_ID("unsafe_id"),
    /** The authorization page refuses: redirect back with {@code error=access_denied}. */
    DENY("deny");

    private final String wireName;

    FailureKind(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    @JsonCreator
    public static FailureKind of(String name) {
        return Arrays.stream(values())
                .filter(kind -> kind.wireName.equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown failure kind '" + name + "'; known: "
                        + Arrays.stream(values()).map(FailureKind::wireName).collect(Collectors.joining(", "))));
    }
}
