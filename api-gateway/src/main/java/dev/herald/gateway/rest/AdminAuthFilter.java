package dev.herald.gateway.rest;

import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.gateway.service.AdminTokenVerifier;
import dev.herald.gateway.service.CallerAuthenticator;
import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.ext.Provider;

/** Guards the admin API with the admin token. */
@Provider
@AdminAuthenticated
@Priority(Priorities.AUTHENTICATION)
public class AdminAuthFilter implements ContainerRequestFilter {
    private final AdminTokenVerifier verifier;

    public AdminAuthFilter(AdminTokenVerifier verifier) {
        this.verifier = verifier;
    }

    @Override
    public void filter(ContainerRequestContext request) {
        String presented = CallerAuthenticator.bearerToken(request.getHeaderString("authorization"));
        if (!verifier.isValid(presented)) {
            throw new ApiException(ErrorCode.AUTHENTICATION_FAILED, "A valid admin token is required.");
        }
    }
}
