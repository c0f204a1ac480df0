package dev.herald.gateway.rest;

import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.gateway.config.AdminConfig;
import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.ext.Provider;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/** Checks the admin token in constant time; no token configured means the admin API is closed. */
@Provider
@AdminAuthenticated
@Priority(Priorities.AUTHENTICATION)
public class AdminAuthFilter implements ContainerRequestFilter {
    private static final String BEARER = "Bearer ";
    private final AdminConfig config;

    public AdminAuthFilter(AdminConfig config) {
        this.config = config;
    }

    @Override
    public void filter(ContainerRequestContext request) {
        String header = request.getHeaderString("authorization");
        String presented = header != null && header.startsWith(BEARER) ? header.substring(BEARER.length()).trim() : "";
        String expected = config.token().filter(t -> !t.isBlank()).orElse(null);
        if (expected == null || !MessageDigest.isEqual(sha256(presented), sha256(expected))) {
            throw new ApiException(ErrorCode.AUTHENTICATION_FAILED, "A valid admin token is required.");
        }
    }

    /** Hashing first makes the comparison independent of the presented token's length. */
    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
