package dev.herald.gateway.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.common.auth.Mode;
import dev.herald.common.wire.Entitlements;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class EntitlementsCacheTest {
    private static final Instant NOW = Instant.parse("2026-11-27T12:00:00Z");
    private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

    private final AtomicInteger fetches = new AtomicInteger();

    private Uni<Entitlements> fetch(String workspaceId, Mode mode) {
        fetches.incrementAndGet();
        return Uni.createFrom().item(EntitlementsCache.freePlan(mode, NOW));
    }

    private static void read(EntitlementsCache cache, int workspaces) {
        for (int i = 0; i < workspaces; i++) {
            cache.get("wsp_" + i, Mode.LIVE).await().indefinitely();
        }
    }

    @Test
    void tenantsWithinTheBoundAreServedFromTheCache() {
        EntitlementsCache cache = new EntitlementsCache(this::fetch, CLOCK, 3);
        read(cache, 3);
        read(cache, 3);
        assertThat(fetches).hasValue(3);
        assertThat(cache.size()).isEqualTo(3);
    }

    @Test
    void tenantsBeyondTheBoundAreEvictedAndFetchedAgain() {
        EntitlementsCache cache = new EntitlementsCache(this::fetch, CLOCK, 3);
        read(cache, 10);
        assertThat(cache.size()).isEqualTo(3);
        read(cache, 10);
        // At most the three kept are served from the cache; every evicted tenant costs a fetch again.
        assertThat(fetches.get()).isGreaterThanOrEqualTo(17);
        assertThat(cache.size()).isEqualTo(3);
    }
}
