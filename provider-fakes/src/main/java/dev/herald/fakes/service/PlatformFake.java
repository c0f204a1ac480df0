package dev.herald.fakes.service;

import com.fasterxml.jackson.databind.JsonNode;
import dev.herald.fakes.model.ArmedFailure;
import dev.herald.fakes.model.FailureKind;
import dev.herald.fakes.model.FakeRequest;
import dev.herald.fakes.model.FakeResponse;
import java.util.List;

/**
 * One platform's fake: its endpoints below {@code /<platform>} and its error shapes. {@link FakeProviders} journals
 * each request and applies the generic failures (rate limit, server error, delay, lost response, token expiry and
 * revocation); the platform answers everything else, checking the tokens it issued.
 */
public interface PlatformFake {

    /** The path prefix and the name in the control API: {@code linkedin}, {@code facebook}, ... */
    String platform();

    FakeResponse handle(FakeRequest request);

    /**
     * Whether requests of this method and path carry media bytes (an upload): their body is streamed through, counted and
     * hashed, never held or journaled ({@link FakeRequest#upload}), so a test may upload hundreds of MiB.
     */
    default boolean receivesBytes(String method, String path) {
        return false;
    }

    /** The platform's rate-limit answer (HTTP status and body as it documents them). */
    FakeResponse rateLimited(ArmedFailure failure);

    /** The platform's answer when it failed internally with this status. */
    FakeResponse serverError(int status);

    /**
     * The platform's answer when it refuses a request it will not carry out, with this client status; by default the
     * same shape as its server error.
     */
    default FakeResponse refused(int status) {
        return serverError(status);
    }

    /** The access token the request presents (a Bearer header; some platforms also take a query parameter). */
    default String accessToken(FakeRequest request) {
        return request.bearerToken();
    }

    /**
     * Whether an armed failure of this kind applies to this request: {@code deny} only to the authorization page,
     * platform-specific kinds only where the platform acts on them, the rest anywhere.
     */
    default boolean actsOn(FailureKind kind, FakeRequest request) {
        if (kind == FailureKind.DENY) {
            return isAuthorizationPage(request);
        }
        return kind != FailureKind.PROCESSING_ERROR;
    }

    boolean isAuthorizationPage(FakeRequest request);

    /** What was published, newest first, as the platform would show it. */
    List<JsonNode> published();

    /** Forgets what was published (tokens and codes are cleared by their owners). */
    void reset();
}
