package dev.herald.delivery.service;

import dev.herald.delivery.config.DeliveryConfig;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Bounded exponential backoff with jitter: the n-th wait is a random time between half and all of
 * min(max, base * 2^(n-1)) (defaults 1 s doubling up to 60 s). The random half spreads out the retries of targets
 * that failed together (one provider outage), so they do not all come back in the same instant.
 */
@ApplicationScoped
public class RetryBackoff {
    private final DeliveryConfig config;

    public RetryBackoff(DeliveryConfig config) {
        this.config = config;
    }

    /** The wait before the {@code n}-th retry (n from 1). */
    public Duration before(int n) {
        return delay(
                config.backoff().base(),
                config.backoff().max(),
                n,
                ThreadLocalRandom.current().nextDouble());
    }

    /**
     * The wait before the {@code n}-th retry of a target the provider refused with {@code details.retry_after_seconds}
     * (its Retry-After): never sooner than the provider asked, capped at {@code herald.delivery.backoff.retry-after-max}
     * (a provider asking for hours gets the cap; the attempt after it may be refused again and count as such).
     */
    public Duration before(int n, Duration providerAsked) {
        return atLeast(before(n), providerAsked, config.backoff().retryAfterMax());
    }

    static Duration atLeast(Duration backoff, Duration providerAsked, Duration cap) {
        if (providerAsked == null || providerAsked.isNegative()) {
            return backoff;
        }
        Duration asked = providerAsked.compareTo(cap) > 0 ? cap : providerAsked;
        return asked.compareTo(backoff) > 0 ? asked : backoff;
    }

    /** {@code random} in [0, 1) picks where in the upper half of the ceiling the wait falls. */
    static Duration delay(Duration base, Duration max, int n, double random) {
        long baseNanos = base.toNanos();
        long maxNanos = max.toNanos();
        int doublings = Math.min(Math.max(n - 1, 0), 62);
        // Compared before shifting, so a large n cannot overflow.
        long ceiling = baseNanos >= (maxNanos >> doublings) ? maxNanos : baseNanos << doublings;
        long half = ceiling / 2;
        return Duration.ofNanos(half + (long) (random * (ceiling - half)));
    }
}
