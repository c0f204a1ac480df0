package dev.herald.usage.service;

import dev.herald.common.events.TargetCompletedEvent;
import dev.herald.common.wire.PostTarget;
import dev.herald.common.wire.UsagePeriod;
import dev.herald.common.wire.UsageReservation;
import dev.herald.usage.model.ReservationEntity;
import java.time.Instant;

/**
 * What a delivery outcome ({@code target.completed}) does to its publication reservation: a published target
 * consumes a reserved reservation in the period of completion, a failed one releases it, an uncertain one keeps it
 * until it is reconciled; a reservation settled already, or settled the other way, or missing, stays as it is. No
 * I/O: {@link ReservationSettlement} applies the same decision on both of its paths, the one statement for a
 * reservation consumed in its own period and the transaction for everything else, so the rule lives here once.
 * Whether the event was applied before is the processed-events mark's question, asked by each path before
 * (transaction) or with (statement) the write.
 *
 * @param completedAt when the target completed (the event's {@code completed_at}, else its time, else now)
 * @param consumedIn the period the units count in, for {@link Verdict#CONSUME}; else null
 */
public record SettlementDecision(Verdict verdict, Instant completedAt, UsagePeriod consumedIn) {

    public enum Verdict {
        /** Published, and the reservation is reserved: its units count as used in {@code consumedIn}. */
        CONSUME,
        /** Failed, and the reservation is reserved: its units go back to its period's allowance. */
        RELEASE,
        /** Uncertain: the reservation stays reserved until a reconciler settles it. */
        KEEP,
        /** The reservation was consumed (published) or released (failed) already: nothing to do. */
        ALREADY_SETTLED,
        /** Published but the reservation is released, or failed but it is consumed: nothing changes (logged). */
        SETTLED_OTHERWISE,
        /** The event names no reservation, workspace or mode (logged). */
        NAMES_NO_RESERVATION,
        /** The tenant has no such reservation (logged). */
        NO_SUCH_RESERVATION,
        /** The event's status is none of published, failed, uncertain (logged). */
        UNKNOWN_STATUS;

        /** Whether the reservation's state decides: what the event asks depends on it. */
        boolean readsReservation() {
            return this == CONSUME || this == RELEASE;
        }
    }

    /**
     * What {@code event} asks before its reservation is read: {@link Verdict#CONSUME} or {@link Verdict#RELEASE} when
     * the reservation's state decides (read it, then ask {@link #of}); any other verdict is final, and nothing needs
     * to be read.
     */
    public static Verdict asked(TargetCompletedEvent event) {
        String status = event.status() == null ? "" : event.status();
        Verdict asked = switch (status) {
            case PostTarget.PUBLISHED -> Verdict.CONSUME;
            case PostTarget.FAILED -> Verdict.RELEASE;
            // A target held for its account's re-authorization (delivery-worker) keeps its reservation too.
            case PostTarget.UNCERTAIN, PostTarget.QUEUED -> Verdict.KEEP;
            default -> Verdict.UNKNOWN_STATUS;
        };
        boolean namesOne = event.reservationId() != null && event.workspaceId() != null && event.mode() != null;
        return asked.readsReservation() && !namesOne ? Verdict.NAMES_NO_RESERVATION : asked;
    }

    /**
     * The decision for {@code event} given its {@code reservation} as read in the event's tenant (null when there is
     * none) and that tenant's {@code subscription}, which places the completion in a period.
     */
    public static SettlementDecision of(
            TargetCompletedEvent event, ReservationEntity reservation, SubscriptionState subscription, Instant now) {
        Instant completedAt = event.completedAt() != null
                ? event.completedAt()
                : event.occurredAt() != null ? event.occurredAt() : now;
        Verdict asked = asked(event);
        if (!asked.readsReservation()) {
            return new SettlementDecision(asked, completedAt, null);
        }
        if (reservation == null) {
            return new SettlementDecision(Verdict.NO_SUCH_RESERVATION, completedAt, null);
        }
        String settledAs =
                asked == Verdict.CONSUME ? UsageReservation.STATUS_CONSUMED : UsageReservation.STATUS_RELEASED;
        if (UsageReservation.STATUS_RESERVED.equals(reservation.status)) {
            UsagePeriod consumedIn = asked == Verdict.CONSUME ? subscription.periodAt(completedAt) : null;
            return new SettlementDecision(asked, completedAt, consumedIn);
        }
        Verdict verdict = settledAs.equals(reservation.status) ? Verdict.ALREADY_SETTLED : Verdict.SETTLED_OTHERWISE;
        return new SettlementDecision(verdict, completedAt, null);
    }

    /**
     * True when the decision is to consume {@code reservation} in its own period: its units move from reserved to
     * used on one meter row, which {@code ReservationStatements.consumeAllInTheirPeriods} does for a batch in one statement.
     */
    public boolean consumesInItsPeriod(ReservationEntity reservation) {
        return verdict == Verdict.CONSUME
                && consumedIn.equals(new UsagePeriod(reservation.periodStart, reservation.periodEnd));
    }
}
