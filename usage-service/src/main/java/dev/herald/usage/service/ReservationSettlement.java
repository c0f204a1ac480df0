package dev.herald.usage.service;

import dev.herald.common.auth.Mode;
import dev.herald.common.events.PostFinalizedEvent;
import dev.herald.common.events.TargetCompletedEvent;
import dev.herald.common.events.UsageEvent;
import dev.herald.common.messaging.ProcessedEvents;
import dev.herald.common.outbox.OutboxWriter;
import dev.herald.common.persistence.UniqueViolation;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.PostTarget;
import dev.herald.common.wire.UsageReservation;
import dev.herald.usage.messaging.UsageEventOutbox;
import dev.herald.usage.model.ReservationEntity;
import dev.herald.usage.repository.ReservationRepository;
import dev.herald.usage.repository.ReservationRepository.WithSubscription;
import dev.herald.usage.repository.ReservationStatements;
import dev.herald.usage.service.SettlementDecision.Verdict;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * Settles publication reservations from delivery outcomes (spec sections 3 and 8): a published target consumes
 * its reservation in the period of completion, a failed one releases it, an uncertain one keeps it until it is
 * reconciled, and a canceled post releases the reservations of all its targets. Each event is applied once:
 * its id is recorded in {@code processed_events} in the same transaction as the effect. A reservation that is
 * unknown or already settled the other way is logged and the event still recorded, so one odd event never
 * blocks the partition behind it.
 *
 * <p>A {@code target.completed} is settled on one of two paths, for throughput (every published target passes here;
 * bench/README.md, "Statements per post"): a published target consumed in its reservation's own period is one statement
 * ({@link ReservationStatements#consumeInItsPeriod}) against the reservation as read; everything else (a failure, a
 * completion in another period, a redelivery, a reservation changed since the read) takes the transaction against the
 * locked reservation. Both apply one {@link SettlementDecision}; the statement only guards that the reservation is
 * still as read and the event new. One path alone would cost either the transaction's round trips on every publication,
 * or a statement that also decides, and logs, every odd case.
 */
@ApplicationScoped
public class ReservationSettlement {
    private static final Logger LOG = Logger.getLogger(ReservationSettlement.class);

    private final ReservationRepository reservations;
    private final ReservationService transitions;
    private final ReservationStatements statements;
    private final UsageEventOutbox events;
    private final Clock clock;

    public ReservationSettlement(
            ReservationRepository reservations,
            ReservationService transitions,
            ReservationStatements statements,
            UsageEventOutbox events,
            Clock clock) {
        this.reservations = reservations;
        this.transitions = transitions;
        this.statements = statements;
        this.events = events;
        this.clock = clock;
    }

    public Uni<Void> targetCompleted(TargetCompletedEvent event) {
        Uni<Boolean> consumed = SettlementDecision.asked(event) == Verdict.CONSUME
                ? consumeInOneStatement(event)
                : Uni.createFrom().item(false);
        return consumed.flatMap(
                done -> done ? Uni.createFrom().voidItem() : Panache.withTransaction(() -> settleInTransaction(event)));
    }

    /**
     * The common case of a published target in one statement ({@link ReservationStatements#consumeInItsPeriod}): the
     * reservation, read without a lock, is to be consumed in its own period. False when the decision is another, or
     * the reservation is no longer as read when the statement runs (nothing is written then); the transaction settles
     * the event as it finds it.
     */
    private Uni<Boolean> consumeInOneStatement(TargetCompletedEvent event) {
        Instant now = Timestamps.now(clock);
        return Panache.withSession(() -> reservations.findInTenantWithSubscription(
                        event.workspaceId(), event.mode(), event.reservationId()))
                .flatMap(found -> {
                    ReservationEntity reservation = found == null ? null : found.reservation();
                    SettlementDecision decision = decide(event, found, now);
                    if (!decision.consumesInItsPeriod(reservation)) {
                        return Uni.createFrom().item(false);
                    }
                    OutboxWriter.Entry announced = events.entry(
                            UsageEvent.CONSUMED,
                            reservation.workspaceId,
                            event.mode(),
                            ReservationWire.consumed(reservation, decision.consumedIn(), now));
                    return statements
                            .consumeInItsPeriod(reservation, now, event.eventId(), announced)
                            // The event's mark was written by a concurrent delivery of it: the transaction finds it.
                            .onFailure(UniqueViolation::causedBy)
                            .recoverWithItem(false);
                });
    }

    private Uni<Void> settleInTransaction(TargetCompletedEvent event) {
        return ProcessedEvents.markProcessed(event.eventId()).flatMap(fresh -> {
            if (!fresh) {
                LOG.debugf("target.completed %s was applied before", event.eventId());
                return Uni.createFrom().voidItem();
            }
            Instant now = Timestamps.now(clock);
            if (!SettlementDecision.asked(event).readsReservation()) {
                logUnsettled(event, decide(event, null, now), null);
                return Uni.createFrom().voidItem();
            }
            // Locked with its tenant's subscription: consuming counts the units in the period of completion.
            return reservations
                    .findInTenantForUpdateWithSubscription(event.workspaceId(), event.mode(), event.reservationId())
                    .flatMap(found -> {
                        SettlementDecision decision = decide(event, found, now);
                        return switch (decision.verdict()) {
                            case CONSUME ->
                                transitions
                                        .consumeReserved(found, decision.completedAt())
                                        .replaceWithVoid();
                            case RELEASE ->
                                transitions
                                        .releaseReserved(List.of(found.reservation()))
                                        .replaceWithVoid();
                            default -> {
                                logUnsettled(event, decision, found);
                                yield Uni.createFrom().voidItem();
                            }
                        };
                    });
        });
    }

    private static SettlementDecision decide(TargetCompletedEvent event, WithSubscription found, Instant now) {
        if (found == null) {
            return SettlementDecision.of(event, null, null, now);
        }
        return SettlementDecision.of(
                event, found.reservation(), SubscriptionState.of(event.mode(), found.subscription()), now);
    }

    /** Logs why an outcome settles nothing, where that is worth a look. */
    private static void logUnsettled(TargetCompletedEvent event, SettlementDecision decision, WithSubscription found) {
        switch (decision.verdict()) {
            case UNKNOWN_STATUS ->
                LOG.warnf("target.completed %s has status %s, which settles nothing", event.eventId(), event.status());
            case NAMES_NO_RESERVATION ->
                LOG.warnf(
                        "target.completed %s names no reservation, workspace or mode; nothing settled",
                        event.eventId());
            case NO_SUCH_RESERVATION ->
                LOG.warnf(
                        "target.completed %s: no reservation %s in %s/%s; nothing settled",
                        event.eventId(),
                        event.reservationId(),
                        event.workspaceId(),
                        event.mode().wireName());
            case SETTLED_OTHERWISE -> {
                ReservationEntity reservation = found.reservation();
                if (PostTarget.PUBLISHED.equals(event.status())) {
                    LOG.warnf(
                            "target.completed %s: post %s published to %s, but reservation %s is %s; nothing consumed",
                            event.eventId(), event.postId(), event.accountId(), reservation.id, reservation.status);
                } else {
                    LOG.warnf(
                            "target.completed %s: post %s failed on %s, but reservation %s is %s; nothing released",
                            event.eventId(), event.postId(), event.accountId(), reservation.id, reservation.status);
                }
            }
            // The provider's outcome is unknown (the reservation stays until a reconciler settles it), or the
            // reservation was settled this way before.
            default -> {}
        }
    }

    @WithTransaction
    public Uni<Void> postFinalized(PostFinalizedEvent event) {
        return ProcessedEvents.markProcessed(event.eventId()).flatMap(fresh -> {
            // Published, partially failed and failed posts were settled target by target (target.completed).
            if (!fresh || !PostFinalizedEvent.CANCELED.equals(event.type())) {
                return Uni.createFrom().voidItem();
            }
            if (event.post() == null || event.post().targets() == null) {
                LOG.warnf("post.canceled %s carries no post targets; nothing to release", event.eventId());
                return Uni.createFrom().voidItem();
            }
            return releaseCanceled(event);
        });
    }

    /** Releases every target's publication reservation that is still reserved, locked together in id order. */
    private Uni<Void> releaseCanceled(PostFinalizedEvent event) {
        String postId = event.post().id();
        Mode mode = event.mode();
        Set<String> ids = new LinkedHashSet<>();
        for (PostTarget target : event.post().targets()) {
            ids.add(UsageReservation.publicationId(postId, target.accountId()));
        }
        if (ids.isEmpty() || event.workspaceId() == null || mode == null) {
            return Uni.createFrom().voidItem();
        }
        return reservations.lockAllInTenant(event.workspaceId(), mode, ids).flatMap(found -> {
            List<ReservationEntity> reserved = new ArrayList<>();
            Set<String> seen = new HashSet<>();
            for (ReservationEntity reservation : found) {
                seen.add(reservation.id);
                if (UsageReservation.STATUS_RESERVED.equals(reservation.status)) {
                    reserved.add(reservation);
                } else if (UsageReservation.STATUS_CONSUMED.equals(reservation.status)) {
                    LOG.warnf(
                            "post.canceled %s: reservation %s of post %s was consumed; it stays consumed",
                            event.eventId(), reservation.id, postId);
                }
            }
            for (String id : ids) {
                if (!seen.contains(id)) {
                    LOG.warnf(
                            "post.canceled %s: no reservation %s in %s/%s; skipped",
                            event.eventId(), id, event.workspaceId(), mode.wireName());
                }
            }
            return transitions.releaseReserved(reserved).replaceWithVoid();
        });
    }
}
