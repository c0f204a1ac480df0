package dev.herald.usage.service;

import dev.herald.common.api.ApiException;
import dev.herald.common.auth.Mode;
import dev.herald.common.events.UsageEvent;
import dev.herald.common.outbox.OutboxWriter;
import dev.herald.common.persistence.UniqueViolation;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.UsageReservation;
import dev.herald.usage.messaging.UsageEventOutbox;
import dev.herald.usage.model.ReservationEntity;
import dev.herald.usage.model.UsageMeterEntity;
import dev.herald.usage.repository.ReservationRepository;
import dev.herald.usage.repository.ReservationStatements;
import dev.herald.usage.repository.SubscriptionRepository;
import dev.herald.usage.service.MeterLocks.MeterPeriod;
import dev.herald.usage.service.ReservationBatchDecision.Demand;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Several reservations admitted together, all or none (a post reserves one publication per destination, and
 * "a limit error means nothing was accepted and nothing was charged"). One transaction locks every meter row
 * the items would charge, in {@link MeterLocks}' order (so a batch never deadlocks with another batch or with a
 * single reservation), checks each period's allowance against the sum of its items, and only then reserves
 * everything, with one {@code usage.reserved} event per new reservation.
 *
 * <p>A new post's batch, whose items all charge one meter row, is one statement instead
 * ({@link ReservationStatements#reserveOnOneMeter}: every post passes here, and the transaction's round trips and
 * Hibernate's flush were most of usage-service's work per post; bench/README.md, "Statements per post"). Every other
 * batch, and one the statement did not admit (a replay, a refusal, whose details are read under the row's lock), takes the
 * transaction. Both work from one {@link ReservationBatchDecision}: which row each item charges, what the items add up
 * to, the limit, and the rule {@code used + reserved + units <= limit}, which the statement applies in SQL to the row
 * it locks.
 */
@ApplicationScoped
public class ReservationBatchService {

    /** The reservations in the order asked, and whether this call created any of them ({@code 201}). */
    public record BatchOutcome(List<UsageReservation> reservations, boolean created) {}

    private final ReservationRepository reservations;
    private final SubscriptionRepository subscriptions;
    private final MeterLocks meterLocks;
    private final AccountCapacity capacity;
    private final ReservationEvents reservationEvents;
    private final UsageLimitRefusal refusal;
    private final ReservationStatements statements;
    private final UsageEventOutbox events;
    private final Clock clock;

    public ReservationBatchService(
            ReservationRepository reservations,
            SubscriptionRepository subscriptions,
            MeterLocks meterLocks,
            AccountCapacity capacity,
            ReservationEvents reservationEvents,
            UsageLimitRefusal refusal,
            ReservationStatements statements,
            UsageEventOutbox events,
            Clock clock) {
        this.reservations = reservations;
        this.subscriptions = subscriptions;
        this.meterLocks = meterLocks;
        this.capacity = capacity;
        this.reservationEvents = reservationEvents;
        this.refusal = refusal;
        this.statements = statements;
        this.events = events;
        this.clock = clock;
    }

    /**
     * Reserves every item (ids distinct), or fails with nothing written: {@code 409 conflict} when an id exists
     * with another meter or number of units, {@code 409 account_capacity_exceeded} (live, with
     * {@code requireAccountCapacity}) when more accounts are connected than the plan allows now, {@code 429
     * usage_limit_exceeded} when a period's allowance cannot hold its items. Items that exist already are
     * answered as they are and checked against nothing: they were admitted by an earlier call.
     */
    public Uni<BatchOutcome> reserveAll(
            String workspaceId, Mode mode, List<ReservationRequest> items, boolean requireAccountCapacity) {
        return reserveOnOneMeter(workspaceId, mode, items, requireAccountCapacity)
                .flatMap(admitted -> admitted != null
                        ? Uni.createFrom().item(admitted)
                        : reserveAllInTransaction(workspaceId, mode, items, requireAccountCapacity));
    }

    private Uni<BatchOutcome> reserveAllInTransaction(
            String workspaceId, Mode mode, List<ReservationRequest> items, boolean requireAccountCapacity) {
        return Panache.withTransaction(() -> reserveAllOnce(workspaceId, mode, items, requireAccountCapacity))
                // A concurrent first call with one of these ids reserved on a meter row this batch does not lock,
                // so only the unique key stopped it. Run again: that reservation now exists and is answered as such.
                .onFailure(UniqueViolation::causedBy)
                .recoverWithUni(() -> Panache.withTransaction(
                        () -> reserveAllOnce(workspaceId, mode, items, requireAccountCapacity)));
    }

    /**
     * The common case, a new post, in one statement ({@link ReservationStatements#reserveOnOneMeter}): every item new
     * and charging the same meter row (a post's targets share its scheduled time). Null when this path does not
     * apply or did not admit: a replay (an id exists), another shape of batch, an allowance too small or a live
     * workspace over its account capacity. The transactional path then answers, with a refusal's details read under
     * the meter row's lock, and replays answered before any check.
     */
    private Uni<BatchOutcome> reserveOnOneMeter(
            String workspaceId, Mode mode, List<ReservationRequest> items, boolean requireAccountCapacity) {
        if (!ReservationBatchDecision.mayBeOneStatement(items)) {
            return Uni.createFrom().nullItem();
        }
        Instant now = Timestamps.now(clock);
        // The session serves the reads and is closed before the statement, which takes a pool connection of its own.
        return Panache.withSession(() -> subscriptions
                        .findInTenant(workspaceId, mode)
                        .flatMap(row -> {
                            SubscriptionState state = SubscriptionState.of(mode, row);
                            Demand demand = ReservationBatchDecision.onOneMeterRow(items, state, now);
                            if (demand == null) {
                                return Uni.createFrom().<Demand>nullItem();
                            }
                            // Over capacity, a replay is still answered as it is: the transactional path looks at the
                            // ids first.
                            Uni<Boolean> withinCapacity = !requireAccountCapacity
                                    ? Uni.createFrom().item(true)
                                    : capacity.require(workspaceId, mode, state, now)
                                            .replaceWith(true)
                                            .onFailure(ApiException.class)
                                            .recoverWithItem(false);
                            return withinCapacity.map(within -> within ? demand : null);
                        }))
                .flatMap(demand ->
                        demand == null ? Uni.createFrom().nullItem() : admit(workspaceId, mode, items, demand, now));
    }

    /**
     * The statement for items that all charge one meter row ({@code demand}'s); null when the allowance could not
     * hold them or an id exists.
     */
    private Uni<BatchOutcome> admit(
            String workspaceId, Mode mode, List<ReservationRequest> items, Demand demand, Instant now) {
        MeterPeriod key = demand.key();
        List<ReservationEntity> created = new ArrayList<>(items.size());
        List<OutboxWriter.Entry> announced = new ArrayList<>(items.size());
        for (ReservationRequest item : items) {
            ReservationEntity reservation =
                    ReservationService.newReservation(workspaceId, mode, item, key.period(), now);
            created.add(reservation);
            announced.add(events.entry(UsageEvent.RESERVED, workspaceId, mode, ReservationWire.of(reservation)));
        }
        return statements
                .reserveOnOneMeter(
                        workspaceId, mode, key.meter(), key.period(), demand.limit(), created, announced, now)
                .onFailure(UniqueViolation::causedBy)
                .recoverWithItem(false)
                .map(admitted -> admitted ? outcome(items, byId(created), true) : null);
    }

    private Uni<BatchOutcome> reserveAllOnce(
            String workspaceId, Mode mode, List<ReservationRequest> items, boolean requireAccountCapacity) {
        List<String> ids = items.stream().map(ReservationRequest::id).toList();
        Instant now = Timestamps.now(clock);
        return subscriptions.findInTenant(workspaceId, mode).flatMap(row -> {
            SubscriptionState state = SubscriptionState.of(mode, row);
            // The reservations are read once, under the locks of the meters every item would charge: a concurrent
            // first call with one of these ids (on the same meter and period) has committed by then and counts as
            // existing. A replay, which is rare, takes the locks too; a new post no longer reads its ids twice.
            return meterLocks
                    .lockInOrder(
                            workspaceId,
                            mode,
                            items.stream()
                                    .map(item -> ReservationBatchDecision.keyOf(item, state, now))
                                    .toList(),
                            now)
                    .flatMap(rows -> reservations
                            .findAllInTenant(workspaceId, mode, ids)
                            .flatMap(found -> {
                                Map<String, ReservationEntity> known = byId(found);
                                List<ReservationRequest> fresh = unreserved(items, known);
                                if (fresh.isEmpty()) {
                                    return Uni.createFrom().item(outcome(items, known, false));
                                }
                                Uni<Void> admitted = requireAccountCapacity
                                        ? capacity.require(workspaceId, mode, state, now)
                                        : Uni.createFrom().voidItem();
                                return admitted.flatMap(ok -> reserve(workspaceId, mode, state, now, fresh, rows))
                                        .map(created -> {
                                            created.forEach(reservation -> known.put(reservation.id, reservation));
                                            return outcome(items, known, true);
                                        });
                            }));
        });
    }

    /** Checks every period's allowance first, so a refusal has changed nothing; then reserves each item. */
    private Uni<List<ReservationEntity>> reserve(
            String workspaceId,
            Mode mode,
            SubscriptionState state,
            Instant now,
            List<ReservationRequest> fresh,
            Map<MeterPeriod, UsageMeterEntity> rows) {
        List<Demand> demands = ReservationBatchDecision.demands(fresh, state, now);
        Demand refused = ReservationBatchDecision.refused(demands, rows);
        if (refused != null) {
            return Uni.createFrom()
                    .failure(refusal.limitExceeded(
                            mode,
                            state,
                            refused.at(),
                            now,
                            refused.key().meter(),
                            refused.limit(),
                            rows.get(refused.key())));
        }
        Map<MeterPeriod, Long> limits = new HashMap<>(); // a null limit is an unlimited meter
        for (Demand demand : demands) {
            limits.put(demand.key(), demand.limit());
        }
        List<ReservationEntity> created = new ArrayList<>();
        Map<String, MeterPeriod> charged = new HashMap<>();
        for (ReservationRequest item : fresh) {
            MeterPeriod key = ReservationBatchDecision.keyOf(item, state, now);
            UsageMeterEntity row = rows.get(key);
            row.reserved += item.units();
            row.updatedAt = now;
            created.add(ReservationService.newReservation(workspaceId, mode, item, key.period(), now));
            charged.put(item.id(), key);
        }
        // Each event tells its meter once the whole batch is reserved, as the one-statement path does.
        return reservations
                .persist(created)
                .flatMap(persisted -> reservations.flush())
                .flatMap(flushed -> reservationEvents.emitEach(UsageEvent.RESERVED, created, reservation -> {
                    MeterPeriod key = charged.get(reservation.id);
                    return rows.get(key).stateWith(limits.get(key));
                }))
                .replaceWith(created);
    }

    /** The items not reserved yet; an existing one with another meter or number of units fails the batch (409). */
    private static List<ReservationRequest> unreserved(
            List<ReservationRequest> items, Map<String, ReservationEntity> existing) {
        List<ReservationRequest> fresh = new ArrayList<>();
        for (ReservationRequest item : items) {
            ReservationEntity found = existing.get(item.id());
            if (found == null) {
                fresh.add(item);
            } else {
                ReservationService.replay(found, item);
            }
        }
        return fresh;
    }

    private static Map<String, ReservationEntity> byId(List<ReservationEntity> found) {
        Map<String, ReservationEntity> byId = new HashMap<>();
        found.forEach(reservation -> byId.put(reservation.id, reservation));
        return byId;
    }

    private static BatchOutcome outcome(
            List<ReservationRequest> items, Map<String, ReservationEntity> known, boolean created) {
        return new BatchOutcome(
                items.stream()
                        .map(item -> ReservationWire.of(known.get(item.id())))
                        .toList(),
                created);
    }
}
