package dev.herald.gateway.service;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.herald.common.auth.Mode;
import dev.herald.common.client.UsageClient;
import dev.herald.common.wire.PlanAllowances;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.List;

/**
 * usage-service's plan catalog per mode, for the dashboard's plan comparison. It changes only when usage-service is
 * redeployed, so a copy kept for {@link #KEEP_FOR} costs a usage page no extra round trip.
 */
@ApplicationScoped
public class PlanCatalogCache {
    static final Duration KEEP_FOR = Duration.ofMinutes(10);

    private final UsageClient usage;
    private final Cache<Mode, List<PlanAllowances>> cache =
            Caffeine.newBuilder().expireAfterWrite(KEEP_FOR).build();

    public PlanCatalogCache(UsageClient usage) {
        this.usage = usage;
    }

    /** The catalog's plans in {@code mode}, cheapest first; {@code workspaceId} only names the caller. */
    public Uni<List<PlanAllowances>> plans(String workspaceId, Mode mode) {
        List<PlanAllowances> cached = cache.getIfPresent(mode);
        if (cached != null) {
            return Uni.createFrom().item(cached);
        }
        return usage.plans(workspaceId, mode).invoke(plans -> cache.put(mode, plans));
    }
}
