package dev.herald.gateway.service;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.herald.common.auth.Mode;
import dev.herald.common.client.UsageClient;
import dev.herald.common.wire.Entitlements;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.function.BiFunction;
import org.jboss.logging.Logger;

/**
 * Each workspace+mode's plan limits, read from usage-service and kept for a few seconds so admission costs
 * no extra round trip. A plan changed through this gateway's admin API is forgotten at once; other replicas
 * see it within the refresh interval. When usage-service cannot be reached, the last known entitlements
 * stay in force, and a tenant never seen before gets the free plan's.
 *
 * <p>Entries are kept past their refresh (they are that fallback), so they leave only when the cache is full: it
 * holds at most {@value #MAXIMUM_SIZE} workspace+modes, well above the tenants active at once on one gateway, and a
 * few MB at worst (an entry is a few hundred bytes). Beyond that Caffeine evicts the least used first: such a tenant's
 * next request fetches its entitlements again, and only in a usage-service outage does it get the free plan's instead
 * of its last known ones.
 */
@ApplicationScoped
public class EntitlementsCache {
    private static final Logger LOG = Logger.getLogger(EntitlementsCache.class);
    static final Duration REFRESH_AFTER = Duration.ofSeconds(5);
    static final int FREE_PER_MINUTE = 30;
    static final long FREE_LIVE_API_REQUESTS = 2_000;
    static final long TEST_API_REQUESTS = 10_000;
    static final long MAXIMUM_SIZE = 10_000;

    private record Cached(Entitlements entitlements, Instant fetchedAt) {}

    private final BiFunction<String, Mode, Uni<Entitlements>> fetch;
    private final Clock clock;
    private final Cache<String, Cached> cache;

    @Inject
    public EntitlementsCache(UsageClient usage, Clock clock) {
        this(usage::entitlements, clock, MAXIMUM_SIZE);
    }

    /** {@code fetch} reads a workspace+mode's entitlements from usage-service. */
    EntitlementsCache(BiFunction<String, Mode, Uni<Entitlements>> fetch, Clock clock, long maximumSize) {
        this.fetch = fetch;
        this.clock = clock;
        this.cache = Caffeine.newBuilder().maximumSize(maximumSize).build();
    }

    public Uni<Entitlements> get(String workspaceId, Mode mode) {
        String key = workspaceId + ":" + mode.wireName();
        Instant now = clock.instant();
        Cached cached = cache.getIfPresent(key);
        if (cached != null
                && now.isBefore(cached.fetchedAt().plus(REFRESH_AFTER))
                && now.isBefore(cached.entitlements().period().end())) {
            return Uni.createFrom().item(cached.entitlements());
        }
        return fetch.apply(workspaceId, mode)
                .invoke(fresh -> cache.put(key, new Cached(fresh, now)))
                .onFailure()
                .recoverWithItem(failure -> {
                    LOG.warnf(
                            "entitlements of %s unavailable (%s); using %s",
                            key, failure.toString(), cached != null ? "the last known ones" : "the free plan's");
                    Entitlements fallback = cached != null
                                    && now.isBefore(
                                            cached.entitlements().period().end())
                            ? cached.entitlements()
                            : freePlan(mode, now);
                    // Kept like an answer, so an outage costs one attempt per tenant per interval, not per request.
                    cache.put(key, new Cached(fallback, now));
                    return fallback;
                });
    }

    public void forget(String workspaceId, Mode mode) {
        cache.invalidate(workspaceId + ":" + mode.wireName());
    }

    /** How many workspace+modes are kept, once pending evictions are done. */
    long size() {
        cache.cleanUp();
        return cache.estimatedSize();
    }

    /** The free plan's, as the spec's plan table gives it (the gateway never ingests; the field is for completeness). */
    private static final int FREE_CONCURRENT_INGESTS = 1;

    static Entitlements freePlan(Mode mode, Instant now) {
        YearMonth month = YearMonth.from(now.atOffset(ZoneOffset.UTC));
        Instant start = month.atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC);
        Instant end = month.plusMonths(1).atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC);
        return new Entitlements(
                "free",
                "free",
                new Entitlements.Period(start, end),
                new Entitlements.RateLimit(FREE_PER_MINUTE),
                mode == Mode.TEST ? TEST_API_REQUESTS : FREE_LIVE_API_REQUESTS,
                FREE_CONCURRENT_INGESTS);
    }
}
