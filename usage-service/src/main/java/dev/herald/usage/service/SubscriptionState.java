package dev.herald.usage.service;

import dev.herald.common.auth.Mode;
import dev.herald.common.wire.UsagePeriod;
import dev.herald.usage.catalog.Allowances;
import dev.herald.usage.catalog.Plan;
import dev.herald.usage.catalog.PlanCatalog;
import dev.herald.usage.catalog.PlanSource;
import dev.herald.usage.catalog.UsagePeriods;
import dev.herald.usage.model.SubscriptionEntity;
import java.time.Instant;

/**
 * The plan of a workspace and mode over time: the current terms, and a downgrade that takes over at
 * {@code pendingEffectiveAt}. A pending change is applied lazily: whoever asks about a moment at or after
 * it sees the new terms, whether or not the row has been rewritten yet.
 */
public record SubscriptionState(Mode mode, PlanTerms current, Instant graceEndsAt, Plan pendingPlan,
                                PlanSource pendingSource, Instant pendingEffectiveAt) {

    public static SubscriptionState initial(Mode mode) {
        return new SubscriptionState(mode, PlanTerms.DEFAULT, null, null, null, null);
    }

    public static SubscriptionState of(Mode mode, SubscriptionEntity row) {
        if (row == null) {
            return initial(mode);
        }
        PlanTerms current = new PlanTerms(Plan.fromWire(row.plan).orElseThrow(),
                PlanSource.fromWire(row.planSource).orElseThrow(), row.startedAt);
        if (row.pendingPlan == null) {
            return new SubscriptionState(mode, current, row.graceEndsAt, null, null, null);
        }
        return new SubscriptionState(mode, current, row.graceEndsAt, Plan.fromWire(row.pendingPlan).orElseThrow(),
                PlanSource.fromWire(row.pendingPlanSource).orElseThrow(), row.pendingEffectiveAt);
    }

    public boolean hasPending() {
        return pendingPlan != null;
    }

    /** The terms in force at {@code at}. */
    public PlanTerms termsAt(Instant at) {
        if (!hasPending() || at.isBefore(pendingEffectiveAt)) {
            return current;
        }
        // The same source continues (a subscription keeps its anniversary); a new source starts when it takes effect.
        boolean sameSource = current.source() == pendingSource;
        return new PlanTerms(pendingPlan, pendingSource, sameSource ? current.startedAt() : pendingEffectiveAt);
    }

    /** The same state with a due pending change made current. */
    public SubscriptionState settledAt(Instant now) {
        if (!hasPending() || now.isBefore(pendingEffectiveAt)) {
            return this;
        }
        return new SubscriptionState(mode, termsAt(now), graceEndsAt, null, null, null);
    }

    /** The usage period containing {@code at}, under the terms in force then. */
    public UsagePeriod periodAt(Instant at) {
        PlanTerms terms = termsAt(at);
        return UsagePeriods.containing(mode, terms.source(), terms.startedAt(), at);
    }

    public Allowances allowancesAt(Instant at) {
        return PlanCatalog.allowances(termsAt(at).plan(), mode);
    }
}
