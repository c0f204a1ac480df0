package dev.herald.gateway.service;

import dev.herald.common.auth.Mode;
import dev.herald.gateway.model.ApiKey;
import dev.herald.gateway.repository.ApiKeyRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;

/**
 * Resolves {@code Authorization: Bearer sk_...} to an active key. Lookup is by the key's SHA-256, so the
 * database never compares secrets, and revocation takes effect on the very next request (no cache).
 */
@ApplicationScoped
public class ApiKeyAuthenticator {
    private static final String BEARER = "Bearer ";

    private final ApiKeyRepository keys;

    public ApiKeyAuthenticator(ApiKeyRepository keys) {
        this.keys = keys;
    }

    public Uni<Optional<ApiKey>> authenticate(String authorization) {
        if (authorization == null || !authorization.startsWith(BEARER)) {
            return Uni.createFrom().item(Optional.empty());
        }
        String secret = authorization.substring(BEARER.length()).trim();
        Optional<Mode> mode = ApiKeySecrets.modeOf(secret);
        if (mode.isEmpty()) {
            return Uni.createFrom().item(Optional.empty());
        }
        return keys.findBySecretHash(ApiKeySecrets.hash(secret))
                .map(key -> Optional.ofNullable(key).filter(ApiKey::isActive).filter(k -> k.mode == mode.get()));
    }
}
