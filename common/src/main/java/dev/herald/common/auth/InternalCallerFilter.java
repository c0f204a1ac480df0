package dev.herald.common.auth;

import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.ext.Provider;

/** Authenticates calls to {@link InternalCaller} resources by their internal JWT. */
@Provider
@InternalCaller
@Priority(Priorities.AUTHENTICATION)
public class InternalCallerFilter implements ContainerRequestFilter {
    private static final String BEARER = "Bearer ";

    private final InternalTokens verifiers;
    private final Caller caller;

    public InternalCallerFilter(InternalTokens verifiers, Caller caller) {
        this.verifiers = verifiers;
        this.caller = caller;
    }

    @Override
    public void filter(ContainerRequestContext request) {
        String authorization = request.getHeaderString(HttpHeaders.AUTHORIZATION);
        String jwt = authorization != null && authorization.startsWith(BEARER)
                ? authorization.substring(BEARER.length())
                : null;
        InternalToken token = verifiers
                .verifier()
                .verify(jwt)
                .orElseThrow(
                        () -> new ApiException(ErrorCode.AUTHENTICATION_FAILED, "No valid credential was provided."));
        caller.authenticate(token);
    }
}
