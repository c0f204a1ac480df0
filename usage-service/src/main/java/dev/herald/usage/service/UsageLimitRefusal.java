package dev.herald.usage.service;

import dev.herald.common.api.ApiException;
import dev.herald.common.api.UsageLimitExceeded;
import dev.herald.common.auth.Mode;
import dev.herald.common.wire.UsagePeriod;
import dev.herald.usage.catalog.Meter;
import dev.herald.usage.config.UsageConfig;
import dev.herald.usage.model.UsageMeterEntity;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;

/** The refusal of work that a period's allowance has no room for, as every meter answers it. */
@ApplicationScoped
public class UsageLimitRefusal {

    private final UsageConfig config;

    public UsageLimitRefusal(UsageConfig config) {
        this.config = config;
    }

    /** {@code 429 usage_limit_exceeded} with the spec's details; Retry-After is the time until the period resets. */
    ApiException limitExceeded(
            Mode mode,
            SubscriptionState state,
            Instant at,
            Instant now,
            Meter meter,
            long limit,
            UsageMeterEntity row) {
        UsagePeriod period = state.periodAt(at);
        UsageLimitExceeded spent = new UsageLimitExceeded(
                meter.wireName(),
                mode,
                state.termsAt(at).plan().wireName(),
                limit,
                row.used,
                row.reserved,
                period.end(),
                config.upgradeUrl(),
                UsageLimitExceeded.secondsUntil(now, period.end()));
        String allowance = "The " + meter.wireName().replace('_', ' ') + " allowance of this period";
        // A large media transfer can be refused with most of the allowance left: say so rather than "used up".
        return spent.toException(
                spent.remaining() == 0
                        ? allowance + " is used up."
                        : allowance + " has " + spent.remaining() + " left, fewer than this needs.");
    }
}
