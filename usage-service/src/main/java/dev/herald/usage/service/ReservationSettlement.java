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
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
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
 * bench/README.md, "Statements per post"): published targets consumed in their reservations' own periods are one read
 * and one statement per batch of events ({@link ReservationStatements#consumeAllInTheirPeriods}) against the
 * reservations as read; everything else (a failure, a completion in another period, a redelivery, a reservation changed
 * since the read) takes a transaction per event against the locked reservation. Both apply one {@link SettlementDecision}; the statement only guards that the reservation is
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

    /**
     * A batch of {@code target.completed}, as one poll of the partitions delivered it. The published targets whose
     * reservations are consumed in their own periods, the common case, go in one read and one statement
     * ({@link ReservationStatements#consumeAllInTheirPeriods}); every other event, in the batch's order, takes the
     * transaction. An event whose reservation another event of the batch names too also takes the transaction, so
     * that the batch applies them in order, as one at a time would.
     */
    public Uni<Void> targetsCompleted(List<TargetCompletedEvent> batch) {
        Map<String, TargetCompletedEvent> distinct = new LinkedHashMap<>();
        Map<ReservationEntity.Key, Integer> named = new HashMap<>();
        for (TargetCompletedEvent event : batch) {
            // A redelivery within the batch: the first one applies it.
            if (distinct.putIfAbsent(event.eventId(), event) == null && event.reservationId() != null) {
                named.merge(key(event), 1, Integer::sum);
            }
        }
        Set<ReservationEntity.Key> keys = new HashSet<>();
        for (TargetCompletedEvent event : distinct.values()) {
            if (SettlementDecision.asked(event) == Verdict.CONSUME && named.get(key(event)) == 1) {
                keys.add(key(event));
            }
        }
        return consumeInOneStatement(distinct.values(), keys).flatMap(applied -> {
            List<TargetCompletedEvent> rest = distinct.values().stream()
                    .filter(event -> !applied.contains(event.eventId()))
                    .toList();
            return Multi.createFrom()
                    .iterable(rest)
                    .onItem()
                    .transformToUniAndConcatenate(event -> Panache.withTransaction(() -> settleInTransaction(event)))
                    .collect()
                    .last()
                    .replaceWithVoid();
        });
    }

    private static ReservationEntity.Key key(TargetCompletedEvent event) {
        String mode = event.mode() == null ? null : event.mode().wireName();
        return new ReservationEntity.Key(event.workspaceId(), mode, event.reservationId());
    }

    /**
     * The events among {@code events} whose reservations (of {@code keys}, read without a lock) are to be consumed
     * in their own periods, consumed in one statement; answers the ids of the events it applied. An event left out
     * (its decision is another, or its reservation is no longer as read when the statement runs) takes the
     * transaction, which settles it as it finds it.
     */
    private Uni<Set<String>> consumeInOneStatement(
            Collection<TargetCompletedEvent> batch, Set<ReservationEntity.Key> keys) {
        if (keys.isEmpty()) {
            return Uni.createFrom().item(Set.of());
        }
        Instant now = Timestamps.now(clock);
        return Panache.withSession(() -> reservations.findAllWithSubscriptions(keys))
                .flatMap(found -> {
                    List<ReservationStatements.Consumption> consumptions = new ArrayList<>();
                    for (TargetCompletedEvent event : batch) {
                        WithSubscription read = keys.contains(key(event)) ? found.get(key(event)) : null;
                        if (read == null) {
                            continue;
                        }
                        ReservationEntity reservation = read.reservation();
                        SettlementDecision decision = decide(event, read, now);
                        if (decision.consumesInItsPeriod(reservation)) {
                            OutboxWriter.Entry announced = events.entry(
                                    UsageEvent.CONSUMED,
                                    reservation.workspaceId,
                                    event.mode(),
                                    ReservationWire.consumed(reservation, decision.consumedIn(), now));
                            consumptions.add(
                                    new ReservationStatements.Consumption(reservation, event.eventId(), announced));
                        }
                    }
                    if (consumptions.isEmpty()) {
                        return Uni.createFrom().item(Set.<String>of());
                    }
                    return statements
                            .consumeAllInTheirPeriods(consumptions, now)
                            // An event's mark was written by a concurrent delivery of it: the transactions find it.
                            .onFailure(UniqueViolation::causedBy)
                            .recoverWithItem(Set.of());
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
