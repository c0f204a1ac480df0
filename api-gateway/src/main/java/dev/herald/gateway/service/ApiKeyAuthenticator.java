package dev.herald.gateway.service;

import dev.herald.common.auth.Mode;
import dev.herald.gateway.model.ApiKey;
import dev.herald.gateway.repository.ApiKeyRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Resolves an API key ({@code sk_test_...}, {@code sk_live_...}) to an active key's credential. Lookup is by
 * the key's SHA-256, so the database never compares secrets. A found key is remembered for one second:
 * a busy key costs one lookup a second instead of one a request, and a revocation still takes effect
 * within a second (DESIGN's bound for revocation) on every replica, and at once on the replica that revoked it
 * ({@link #forget}).
 */
@ApplicationScoped
public class ApiKeyAuthenticator {
    static final Duration REMEMBER_FOR = Duration.ofSeconds(1);
    private static final int MAX_REMEMBERED = 10_000;

    private record Remembered(Credential credential, Instant until) {}

    private final ApiKeyRepository keys;
    private final Clock clock;
    private final ConcurrentHashMap<String, Remembered> recent = new ConcurrentHashMap<>();

    public ApiKeyAuthenticator(ApiKeyRepository keys, Clock clock) {
        this.keys = keys;
        this.clock = clock;
    }

    public Uni<Optional<Credential>> authenticate(String secret) {
        Optional<Mode> mode = ApiKeySecrets.modeOf(secret);
        if (mode.isEmpty()) {
            return Uni.createFrom().item(Optional.empty());
        }
        String hash = ApiKeySecrets.hash(secret);
        Instant now = clock.instant();
        Remembered remembered = recent.get(hash);
        if (remembered != null && now.isBefore(remembered.until())) {
            return Uni.createFrom().item(Optional.of(remembered.credential()));
        }
        return keys.findBySecretHash(hash)
                .map(key -> Optional.ofNullable(key)
                        .filter(ApiKey::isActive)
                        .filter(k -> k.mode == mode.get())
                        .map(k -> new Credential(k.id, k.workspaceId, k.mode, k.scopeSet())))
                .invoke(credential -> {
                    if (credential.isPresent()) {
                        if (recent.size() >= MAX_REMEMBERED) {
                            recent.clear();
                        }
                        recent.put(hash, new Remembered(credential.get(), now.plus(REMEMBER_FOR)));
                    } else {
                        recent.remove(hash);
                    }
                });
    }

    /** Drops a remembered key (by its secret's hash), so a revocation made here applies to the next request. */
    public void forget(String secretHash) {
        recent.remove(secretHash);
    }
}
