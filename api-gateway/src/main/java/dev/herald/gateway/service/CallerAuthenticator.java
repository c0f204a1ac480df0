package dev.herald.gateway.service;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;

/** {@code Authorization: Bearer <API key or OAuth access token>} to a credential, or nothing. */
@ApplicationScoped
public class CallerAuthenticator {
    private static final String BEARER = "Bearer ";

    private final ApiKeyAuthenticator apiKeys;
    private final AccessTokenVerifier accessTokens;

    public CallerAuthenticator(ApiKeyAuthenticator apiKeys, AccessTokenVerifier accessTokens) {
        this.apiKeys = apiKeys;
        this.accessTokens = accessTokens;
    }

    public Uni<Optional<Credential>> authenticate(String authorization) {
        String presented = bearerToken(authorization);
        if (presented == null) {
            return Uni.createFrom().item(Optional.empty());
        }
        return presented.startsWith("sk_") ? apiKeys.authenticate(presented) : accessTokens.verify(presented);
    }

    /**
     * What an {@code Authorization: Bearer <token>} header presents, or null for another scheme or none. The scheme's
     * name is case-insensitive (RFC 7235 section 2.1): "bearer" and "BEARER" are Bearer too.
     */
    public static String bearerToken(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return null;
        }
        return authorization.substring(BEARER.length()).trim();
    }
}
