package dev.herald.gateway.service;

import dev.herald.common.auth.Mode;
import dev.herald.gateway.model.ApiKey;
import dev.herald.gateway.repository.ApiKeyRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;

/**
 * Resolves an API key ({@code sk_test_...}, {@code sk_live_...}) to an active key's credential. Lookup is by the key's SHA-256, so the
 * database never compares secrets, and revocation takes effect on the very next request (no cache).
 */
@ApplicationScoped
public class ApiKeyAuthenticator {
    private final ApiKeyRepository keys;

    public ApiKeyAuthenticator(ApiKeyRepository keys) {
        this.keys = keys;
    }

    public Uni<Optional<Credential>> authenticate(String secret) {
        Optional<Mode> mode = ApiKeySecrets.modeOf(secret);
        if (mode.isEmpty()) {
            return Uni.createFrom().item(Optional.empty());
        }
        return keys.findBySecretHash(ApiKeySecrets.hash(secret))
                .map(key -> Optional.ofNullable(key).filter(ApiKey::isActive).filter(k -> k.mode == mode.get())
                        .map(k -> new Credential(k.id, k.workspaceId, k.mode, k.scopeSet())));
    }
}
