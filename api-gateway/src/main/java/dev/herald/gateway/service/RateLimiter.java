package dev.herald.gateway.service;

import dev.herald.common.time.Timestamps;
import dev.herald.gateway.config.RateLimitConfig;
import dev.herald.gateway.repository.RateLimitWindowRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * Fixed windows per calendar minute (DESIGN section 3), counted in PostgreSQL so replicas agree. Every
 * request is counted, exempt from monthly metering or not. This issue reports the window truthfully;
 * refusing requests over the limit ({@code 429 rate_limit_exceeded}) arrives with plans (issue 3).
 */
@ApplicationScoped
public class RateLimiter {
    private final RateLimitWindowRepository windows;
    private final RateLimitConfig config;
    private final Clock clock;

    public RateLimiter(RateLimitWindowRepository windows, RateLimitConfig config, Clock clock) {
        this.windows = windows;
        this.config = config;
        this.clock = clock;
    }

    public Uni<RateLimitStatus> countKeyRequest(String workspaceId, String mode) {
        return count(workspaceId + ":" + mode, config.defaultPerMinute());
    }

    public Uni<RateLimitStatus> countAnonymousRequest(String clientAddress) {
        return count("ip:" + clientAddress, config.anonymousPerMinute());
    }

    private Uni<RateLimitStatus> count(String subject, int limit) {
        Instant windowStart = Timestamps.now(clock).truncatedTo(ChronoUnit.MINUTES);
        long reset = windowStart.plus(1, ChronoUnit.MINUTES).getEpochSecond();
        return windows.increment(subject, windowStart)
                .map(count -> new RateLimitStatus(limit, Math.max(0, limit - count), reset));
    }
}
