package dev.herald.gateway.proxy;

import dev.herald.common.auth.InternalJwtConfig;
import dev.herald.common.auth.InternalToken;
import dev.herald.common.auth.InternalTokens;
import dev.herald.gateway.service.Credential;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Internal JWTs per credential, reused for half their lifetime: an RSA signature per request would cost a
 * millisecond of CPU each. Entries are keyed by credential id; a revoked credential never reaches this point.
 */
@ApplicationScoped
public class InternalTokenCache {
    private record Cached(String jwt, Instant refreshAfter) {}

    private final InternalTokens tokens;
    private final InternalJwtConfig config;
    private final Clock clock;
    private final ConcurrentHashMap<String, Cached> cache = new ConcurrentHashMap<>();

    public InternalTokenCache(InternalTokens tokens, InternalJwtConfig config, Clock clock) {
        this.tokens = tokens;
        this.config = config;
        this.clock = clock;
    }

    public String tokenFor(Credential key) {
        Instant now = clock.instant();
        Cached cached = cache.get(key.id());
        if (cached != null && now.isBefore(cached.refreshAfter())) {
            return cached.jwt();
        }
        String jwt = tokens.issuer().issue(new InternalToken(key.workspaceId(), key.mode(), key.id(), key.scopes()));
        if (cache.size() > 10_000) {
            cache.clear();
        }
        cache.put(key.id(), new Cached(jwt, now.plus(config.ttl().dividedBy(2))));
        return jwt;
    }
}
