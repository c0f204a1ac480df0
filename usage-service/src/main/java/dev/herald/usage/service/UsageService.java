package dev.herald.usage.service;

import dev.herald.common.auth.Mode;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.Entitlements;
import dev.herald.common.wire.Usage;
import dev.herald.common.wire.UsagePeriod;
import dev.herald.usage.catalog.Allowances;
import dev.herald.usage.catalog.Meter;
import dev.herald.usage.catalog.PlanCatalog;
import dev.herald.usage.model.UsageMeterEntity;
import dev.herald.usage.repository.ConnectedAccountRepository;
import dev.herald.usage.repository.SubscriptionRepository;
import dev.herald.usage.repository.UsageMeterRepository;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;

/** What a workspace and mode may use and has used in the current period ({@code GET /usage}). */
@ApplicationScoped
public class UsageService {
    private final SubscriptionRepository subscriptions;
    private final UsageMeterRepository meters;
    private final ConnectedAccountRepository accounts;
    private final Clock clock;

    public UsageService(
            SubscriptionRepository subscriptions,
            UsageMeterRepository meters,
            ConnectedAccountRepository accounts,
            Clock clock) {
        this.subscriptions = subscriptions;
        this.meters = meters;
        this.accounts = accounts;
        this.clock = clock;
    }

    /** {@code apiRequestsUsed} is the gateway's count for the current period (usage-service does not count requests). */
    @WithSession
    public Uni<Usage> usage(String workspaceId, Mode mode, long apiRequestsUsed) {
        Instant now = Timestamps.now(clock);
        return subscriptions
                .findInTenant(workspaceId, mode)
                .flatMap(row -> view(workspaceId, mode, SubscriptionState.of(mode, row), now, apiRequestsUsed));
    }

    @WithSession
    public Uni<Entitlements> entitlements(String workspaceId, Mode mode) {
        Instant now = Timestamps.now(clock);
        return subscriptions.findInTenant(workspaceId, mode).map(row -> {
            SubscriptionState state = SubscriptionState.of(mode, row);
            PlanTerms terms = state.termsAt(now);
            UsagePeriod period = state.periodAt(now);
            Allowances allowances = PlanCatalog.allowances(terms.plan(), mode);
            return new Entitlements(
                    terms.plan().wireName(),
                    terms.source().wireName(),
                    new Entitlements.Period(period.start(), period.end()),
                    new Entitlements.RateLimit(allowances.requestsPerMinute()),
                    allowances.apiRequests(),
                    allowances.concurrentIngests());
        });
    }

    /** The usage view of {@code state} at {@code now}, read within the caller's session. */
    Uni<Usage> view(String workspaceId, Mode mode, SubscriptionState subscription, Instant now, long apiRequestsUsed) {
        // Settled, so an end of grace that has passed shows as the terms after it, with no grace left.
        SubscriptionState state = subscription.settledAt(now);
        PlanTerms terms = state.termsAt(now);
        UsagePeriod period = state.periodAt(now);
        Allowances allowances = PlanCatalog.allowances(terms.plan(), mode);
        return meters.inPeriod(workspaceId, mode, period.start())
                .flatMap(rows -> accounts.count(workspaceId, mode)
                        .map(connected -> new Usage(
                                mode,
                                terms.plan().wireName(),
                                terms.source().wireName(),
                                PlanCatalog.VERSION,
                                period,
                                period.end(),
                                state.graceEndsAt(),
                                new Usage.Accounts(
                                        connected,
                                        allowances.connectedAccounts(),
                                        Math.max(0, allowances.connectedAccounts() - connected)),
                                meter(rows, Meter.PUBLICATIONS, allowances, period),
                                meter(apiRequestsUsed, 0, allowances.apiRequests(), period),
                                meter(rows, Meter.MEDIA_BYTES, allowances, period),
                                meter(rows, Meter.COMMENT_REQUESTS, allowances, period),
                                meter(rows, Meter.NEW_CONNECTIONS, allowances, period),
                                new Usage.RateLimit(allowances.requestsPerMinute()),
                                allowances.concurrentIngests())));
    }

    /** Null when the meter is unlimited (test mode's media, comment requests and new connections). */
    private static Usage.Meter meter(
            Map<Meter, UsageMeterEntity> rows, Meter meter, Allowances allowances, UsagePeriod period) {
        Long limit = meter.limitIn(allowances);
        if (limit == null) {
            return null;
        }
        UsageMeterEntity row = rows.get(meter);
        return meter(row == null ? 0 : row.used, row == null ? 0 : row.reserved, limit, period);
    }

    private static Usage.Meter meter(long used, long reserved, long limit, UsagePeriod period) {
        return new Usage.Meter(used, reserved, limit, Math.max(0, limit - used - reserved), period.end());
    }
}
