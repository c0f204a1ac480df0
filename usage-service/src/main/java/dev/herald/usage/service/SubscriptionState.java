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
 * The plan of a workspace and mode over time: the current terms, a downgrade that takes over at
 * {@code pendingEffectiveAt}, and {@code graceEndsAt}, when beta access, a complimentary plan or a failed-payment
 * grace period stops applying (spec section 8). At the end of grace the current terms lapse: to the pending plan if
 * one is scheduled (it is what comes next), else to the free plan, from that moment on. Changes are applied lazily:
 * whoever asks about a moment at or after one sees the new terms, whether or not the row has been rewritten yet.
 */
public record SubscriptionState(
        Mode mode,
        PlanTerms current,
        Instant graceEndsAt,
        Plan pendingPlan,
        PlanSource pendingSource,
        Instant pendingEffectiveAt) {

    public static SubscriptionState initial(Mode mode) {
        return new SubscriptionState(mode, PlanTerms.DEFAULT, null, null, null, null);
    }

    public static SubscriptionState of(Mode mode, SubscriptionEntity row) {
        if (row == null) {
            return initial(mode);
        }
        PlanTerms current = new PlanTerms(
                Plan.fromWire(row.plan).orElseThrow(),
                PlanSource.fromWire(row.planSource).orElseThrow(),
                row.startedAt);
        if (row.pendingPlan == null) {
            return new SubscriptionState(mode, current, row.graceEndsAt, null, null, null);
        }
        return new SubscriptionState(
                mode,
                current,
                row.graceEndsAt,
                Plan.fromWire(row.pendingPlan).orElseThrow(),
                PlanSource.fromWire(row.pendingPlanSource).orElseThrow(),
                row.pendingEffectiveAt);
    }

    public boolean hasPending() {
        return pendingPlan != null;
    }

    /** The terms in force at {@code at}. */
    public PlanTerms termsAt(Instant at) {
        Instant changesAt = nextChange();
        if (changesAt == null || at.isBefore(changesAt)) {
            return current;
        }
        if (!hasPending()) {
            // Grace is over and nothing was scheduled: the free plan, calendar months, from the end of grace on.
            return new PlanTerms(Plan.FREE, PlanSource.FREE, changesAt);
        }
        // The same source continues (a subscription keeps its anniversary); a new source starts when it takes effect.
        boolean sameSource = current.source() == pendingSource;
        return new PlanTerms(pendingPlan, pendingSource, sameSource ? current.startedAt() : changesAt);
    }

    /**
     * The same state with a due change made current. Grace belongs to the terms it was given with, so it ends with
     * them: after a lapse or a pending change, nothing is in grace.
     */
    public SubscriptionState settledAt(Instant now) {
        Instant changesAt = nextChange();
        if (changesAt == null || now.isBefore(changesAt)) {
            return this;
        }
        return new SubscriptionState(mode, termsAt(now), null, null, null, null);
    }

    /** When the current terms end: the pending change or the end of grace, whichever comes first; null if neither. */
    private Instant nextChange() {
        Instant graceEnds = graceEndsAt != null && current.source() != PlanSource.FREE ? graceEndsAt : null;
        Instant pendingAt = hasPending() ? pendingEffectiveAt : null;
        if (graceEnds == null) {
            return pendingAt;
        }
        return pendingAt == null || graceEnds.isBefore(pendingAt) ? graceEnds : pendingAt;
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
