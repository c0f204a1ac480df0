package dev.herald.usage.service;

import dev.herald.common.auth.Mode;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.Usage;
import dev.herald.usage.catalog.Plan;
import dev.herald.usage.catalog.PlanSource;
import dev.herald.usage.model.SubscriptionEntity;
import dev.herald.usage.repository.SubscriptionRepository;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;

/**
 * Plan changes (spec section 8, "Behavior at a limit" 4): upgrades apply at once, downgrades at the end of
 * the current period. Nothing is ever disconnected or deleted; a workspace left over its account capacity
 * is refused new live posts elsewhere.
 */
@ApplicationScoped
public class SubscriptionService {
    private final SubscriptionRepository subscriptions;
    private final UsageService usage;
    private final Clock clock;

    public SubscriptionService(SubscriptionRepository subscriptions, UsageService usage, Clock clock) {
        this.subscriptions = subscriptions;
        this.usage = usage;
        this.clock = clock;
    }

    /**
     * Puts a workspace and mode on {@code plan} from {@code source}:
     * <ul>
     * <li>a higher plan, or the same plan from a new source that does not end a running paid subscription,
     * applies now (any pending downgrade is dropped);</li>
     * <li>a lower plan, or the same plan moving off a paid subscription, waits until the current period ends;</li>
     * <li>the current plan and source again only drop a pending downgrade.</li>
     * </ul>
     * A new source starts its terms now (a new subscription starts a new monthly period now); the same source
     * keeps its start (a subscription keeps its anniversary). {@code graceEndsAt} applies at once.
     */
    @WithTransaction
    public Uni<Usage> change(
            String workspaceId, Mode mode, Plan plan, PlanSource source, Instant graceEndsAt, long apiRequestsUsed) {
        Instant now = Timestamps.now(clock);
        return subscriptions.lockOrCreate(workspaceId, mode, now).flatMap(row -> {
            SubscriptionState state = SubscriptionState.of(mode, row).settledAt(now);
            PlanTerms current = state.current();
            boolean endsPaidTerm = current.source() == PlanSource.SUBSCRIPTION && source != PlanSource.SUBSCRIPTION;
            boolean deferred = current.plan().isAbove(plan) || (current.plan() == plan && endsPaidTerm);
            SubscriptionState next;
            if (deferred) {
                next = new SubscriptionState(
                        mode,
                        current,
                        graceEndsAt,
                        plan,
                        source,
                        state.periodAt(now).end());
            } else {
                Instant startedAt = source == current.source() ? current.startedAt() : now;
                next = new SubscriptionState(
                        mode, new PlanTerms(plan, source, startedAt), graceEndsAt, null, null, null);
            }
            write(row, next, now);
            return subscriptions.flush().flatMap(flushed -> usage.view(workspaceId, mode, next, now, apiRequestsUsed));
        });
    }

    private static void write(SubscriptionEntity row, SubscriptionState state, Instant now) {
        row.plan = state.current().plan().wireName();
        row.planSource = state.current().source().wireName();
        row.startedAt = state.current().startedAt();
        row.graceEndsAt = state.graceEndsAt();
        row.pendingPlan = state.hasPending() ? state.pendingPlan().wireName() : null;
        row.pendingPlanSource = state.hasPending() ? state.pendingSource().wireName() : null;
        row.pendingEffectiveAt = state.pendingEffectiveAt();
        row.updatedAt = now;
    }
}
