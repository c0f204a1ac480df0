package dev.herald.gateway.service;

import dev.herald.common.auth.Mode;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.Entitlements;
import dev.herald.gateway.config.RateLimitConfig;
import dev.herald.gateway.repository.AdmissionStatements;
import dev.herald.gateway.repository.AdmissionStatements.CountRequest;
import dev.herald.gateway.repository.RateWindowLeases;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * Rate limiting and monthly API-request metering (DESIGN section 3). Every request counts in its
 * workspace+mode's fixed calendar-minute window, exempt or not, refused or not; a metered request also
 * takes one unit of the month's allowance, atomically and only when it is within the rate limit. Requests
 * without a valid credential count in a per-address window, for truthful headers; dashboard requests in a window of
 * their own. A busy workspace's window
 * positions are taken a few at a time ({@link RateWindowLeases}).
 */
@ApplicationScoped
public class RequestAdmission {
    private final RateWindowLeases leases;
    private final AdmissionStatements counters;
    private final EntitlementsCache entitlements;
    private final RateLimitConfig config;
    private final Clock clock;

    public RequestAdmission(
            RateWindowLeases leases,
            AdmissionStatements counters,
            EntitlementsCache entitlements,
            RateLimitConfig config,
            Clock clock) {
        this.leases = leases;
        this.counters = counters;
        this.entitlements = entitlements;
        this.config = config;
        this.clock = clock;
    }

    public Uni<Admission> admitKeyRequest(String workspaceId, Mode mode, boolean metered) {
        String subject = workspaceId + ":" + mode.wireName();
        return entitlements.get(workspaceId, mode).flatMap(plan -> {
            Instant now = Timestamps.now(clock);
            Instant windowStart = windowStart(now);
            int perMinute = plan.rateLimit().perMinute();
            long monthly = plan.apiRequestsLimit() == null ? Long.MAX_VALUE : plan.apiRequestsLimit();
            return leases.count(
                            new CountRequest(subject, windowStart, plan.period().start(), metered, perMinute, monthly),
                            now)
                    .map(counts -> {
                        RateLimitStatus rate = rateStatus(perMinute, counts.windowCount(), windowStart);
                        Admission.Outcome outcome;
                        if (counts.windowCount() > perMinute) {
                            outcome = Admission.Outcome.RATE_LIMITED;
                        } else if (metered ? !counts.metered() : counts.meterUsedBefore() >= monthly) {
                            // Once the allowance is spent every request is refused until reset, exempt routes too.
                            outcome = Admission.Outcome.ALLOWANCE_SPENT;
                        } else {
                            outcome = Admission.Outcome.ADMITTED;
                        }
                        long used = counts.metered() ? counts.meterUsedBefore() + 1 : counts.meterUsedBefore();
                        return new Admission(outcome, rate, plan, used, subject);
                    });
        });
    }

    public Uni<RateLimitStatus> countAnonymousRequest(String clientAddress) {
        Instant now = Timestamps.now(clock);
        Instant windowStart = windowStart(now);
        int limit = config.anonymousPerMinute();
        Entitlements.Period none = new Entitlements.Period(windowStart, windowStart);
        return leases.count(
                        new CountRequest(
                                "ip:" + clientAddress, windowStart, none.start(), false, limit, Long.MAX_VALUE),
                        now)
                .map(counts -> rateStatus(limit, counts.windowCount(), windowStart));
    }

    /**
     * Counts a dashboard request in the workspace+mode's dashboard window (spec section 8: its own limit, never an API
     * request, and not refused when the month's allowance is spent).
     */
    public Uni<WindowCount> countDashboardRequest(String workspaceId, Mode mode, int perMinute) {
        Instant now = Timestamps.now(clock);
        Instant windowStart = windowStart(now);
        return leases.count(
                        new CountRequest(
                                "dashboard:" + workspaceId + ":" + mode.wireName(),
                                windowStart,
                                windowStart,
                                false,
                                perMinute,
                                Long.MAX_VALUE),
                        now)
                .map(counts -> new WindowCount(
                        rateStatus(perMinute, counts.windowCount(), windowStart), counts.windowCount() > perMinute));
    }

    /** A request counted in a window: the headers it gets, and whether it went past the limit. */
    public record WindowCount(RateLimitStatus status, boolean overLimit) {}

    /**
     * The workspace+mode's monthly API requests in the period starting {@code periodStart}, as counted so far. Metered
     * units are always granted by the shared count, never from a replica's lease, so this is the truth.
     */
    public Uni<Long> meteredUsed(String workspaceId, Mode mode, Instant periodStart) {
        return counters.meteredUsed(workspaceId + ":" + mode.wireName(), periodStart);
    }

    /** A metered request whose answer does not count gives its unit back. */
    public Uni<Void> refund(Admission admission) {
        Instant periodStart = admission.entitlements().period().start();
        leases.refunded(admission.subject(), periodStart);
        return counters.refund(admission.subject(), periodStart);
    }

    private static Instant windowStart(Instant now) {
        return now.truncatedTo(ChronoUnit.MINUTES);
    }

    private RateLimitStatus rateStatus(int limit, int count, Instant windowStart) {
        long reset = windowStart.plus(1, ChronoUnit.MINUTES).getEpochSecond();
        return new RateLimitStatus(limit, Math.max(0, limit - count), reset);
    }
}
