package dev.herald.common.client;

import dev.herald.common.auth.InternalJwtConfig;
import dev.herald.common.auth.InternalToken;
import dev.herald.common.auth.InternalTokens;
import dev.herald.common.auth.Mode;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The {@code authorization} header of one service's calls to another: an internal JWT for the workspace and
 * mode the call is about (the callee scopes everything by them), without scopes, naming this service
 * ({@code quarkus.application.name}) as the caller. Tokens are reused for half their lifetime: an RSA
 * signature per call would cost about a millisecond of CPU each.
 */
@ApplicationScoped
public class InternalBearer {
    private static final int MAX_CACHED = 10_000;

    private record Cached(String header, Instant refreshAfter) {}

    private final InternalTokens tokens;
    private final InternalJwtConfig config;
    private final Clock clock;
    private final String caller;
    private final ConcurrentHashMap<String, Cached> cache = new ConcurrentHashMap<>();

    public InternalBearer(
            InternalTokens tokens,
            InternalJwtConfig config,
            Clock clock,
            @ConfigProperty(name = "quarkus.application.name") String caller) {
        this.tokens = tokens;
        this.config = config;
        this.clock = clock;
        this.caller = caller;
    }

    public String of(String workspaceId, Mode mode) {
        String tenant = workspaceId + ":" + mode.wireName();
        Instant now = clock.instant();
        Cached cached = cache.get(tenant);
        if (cached != null && now.isBefore(cached.refreshAfter())) {
            return cached.header();
        }
        String header = "Bearer " + tokens.issuer().issue(new InternalToken(workspaceId, mode, caller, Set.of()));
        if (cache.size() > MAX_CACHED) {
            cache.clear();
        }
        cache.put(tenant, new Cached(header, now.plus(config.ttl().dividedBy(2))));
        return header;
    }
}
