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
import dev.herald.common.wire.UsagePeriod;
import dev.herald.common.wire.UsageReservation;
import dev.herald.usage.messaging.UsageEventOutbox;
import dev.herald.usage.model.ReservationEntity;
import dev.herald.usage.repository.ReservationRepository;
import dev.herald.usage.repository.ReservationRepository.WithSubscription;
import dev.herald.usage.repository.ReservationStatements;
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
        Uni<Boolean> consumed = PostTarget.PUBLISHED.equals(event.status())
                ? consumeInOneStatement(event)
                : Uni.createFrom().item(false);
        return consumed.flatMap(
                done -> done ? Uni.createFrom().voidItem() : Panache.withTransaction(() -> settleInTransaction(event)));
    }

    /**
     * The common case of a published target in one statement ({@link ReservationStatements#consumeInItsPeriod}): its
     * reservation is reserved and the target completed in the reservation's own period. False when the reservation,
     * read without a lock, is not like that, or is no longer when the statement runs (nothing is written then); the
     * transaction settles the event as it finds it.
     */
    private Uni<Boolean> consumeInOneStatement(TargetCompletedEvent event) {
        if (event.reservationId() == null || event.workspaceId() == null || event.mode() == null) {
            return Uni.createFrom().item(false);
        }
        Instant now = Timestamps.now(clock);
        Instant completedAt = event.completedAt() != null
                ? event.completedAt()
                : event.occurredAt() != null ? event.occurredAt() : now;
        return Panache.withSession(() -> reservations.findInTenantWithSubscription(
                        event.workspaceId(), event.mode(), event.reservationId()))
                .flatMap(found -> {
                    if (found == null || !UsageReservation.STATUS_RESERVED.equals(found.reservation().status)) {
                        return Uni.createFrom().item(false);
                    }
                    ReservationEntity reservation = found.reservation();
                    UsagePeriod reservedIn = new UsagePeriod(reservation.periodStart, reservation.periodEnd);
                    if (!SubscriptionState.of(event.mode(), found.subscription())
                            .periodAt(completedAt)
                            .equals(reservedIn)) {
                        return Uni.createFrom().item(false);
                    }
                    OutboxWriter.Entry announced = events.entry(
                            UsageEvent.CONSUMED,
                            reservation.workspaceId,
                            event.mode(),
                            ReservationService.consumedWire(reservation, reservedIn, now));
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
            return switch (event.status() == null ? "" : event.status()) {
                case PostTarget.PUBLISHED -> consume(event);
                case PostTarget.FAILED -> release(event);
                // The provider's outcome is unknown: the reservation stays until a reconciler settles it.
                case PostTarget.UNCERTAIN -> Uni.createFrom().voidItem();
                default -> {
                    LOG.warnf(
                            "target.completed %s has status %s, which settles nothing",
                            event.eventId(), event.status());
                    yield Uni.createFrom().voidItem();
                }
            };
        });
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

    private Uni<Void> consume(TargetCompletedEvent event) {
        return locked(event).flatMap(found -> {
            if (found == null) {
                return Uni.createFrom().voidItem();
            }
            ReservationEntity reservation = found.reservation();
            return switch (reservation.status) {
                case UsageReservation.STATUS_RESERVED ->
                    transitions
                            .consumeReserved(
                                    found, event.completedAt() != null ? event.completedAt() : event.occurredAt())
                            .replaceWithVoid();
                case UsageReservation.STATUS_CONSUMED -> Uni.createFrom().voidItem();
                default -> {
                    LOG.warnf(
                            "target.completed %s: post %s published to %s, but reservation %s is %s; nothing consumed",
                            event.eventId(), event.postId(), event.accountId(), reservation.id, reservation.status);
                    yield Uni.createFrom().voidItem();
                }
            };
        });
    }

    private Uni<Void> release(TargetCompletedEvent event) {
        return locked(event).flatMap(found -> {
            if (found == null) {
                return Uni.createFrom().voidItem();
            }
            ReservationEntity reservation = found.reservation();
            return switch (reservation.status) {
                case UsageReservation.STATUS_RESERVED ->
                    transitions.releaseReserved(List.of(reservation)).replaceWithVoid();
                case UsageReservation.STATUS_RELEASED -> Uni.createFrom().voidItem();
                default -> {
                    LOG.warnf(
                            "target.completed %s: post %s failed on %s, but reservation %s is %s; nothing released",
                            event.eventId(), event.postId(), event.accountId(), reservation.id, reservation.status);
                    yield Uni.createFrom().voidItem();
                }
            };
        });
    }

    /**
     * The event's reservation, locked, with its tenant's subscription (consuming counts the units in the period of
     * completion); null (logged) when the event names none or it does not exist.
     */
    private Uni<WithSubscription> locked(TargetCompletedEvent event) {
        if (event.reservationId() == null || event.workspaceId() == null || event.mode() == null) {
            LOG.warnf("target.completed %s names no reservation, workspace or mode; nothing settled", event.eventId());
            return Uni.createFrom().nullItem();
        }
        return reservations
                .findInTenantForUpdateWithSubscription(event.workspaceId(), event.mode(), event.reservationId())
                .invoke(found -> {
                    if (found == null) {
                        LOG.warnf(
                                "target.completed %s: no reservation %s in %s/%s; nothing settled",
                                event.eventId(),
                                event.reservationId(),
                                event.workspaceId(),
                                event.mode().wireName());
                    }
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
