package dev.herald.usage.service;

import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.api.UsageLimitExceeded;
import dev.herald.common.auth.Mode;
import dev.herald.common.events.UsageEvent;
import dev.herald.common.events.UsageEvent.MeterState;
import dev.herald.common.persistence.UniqueViolation;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.UsagePeriod;
import dev.herald.common.wire.UsageReservation;
import dev.herald.usage.catalog.Meter;
import dev.herald.usage.config.UsageConfig;
import dev.herald.usage.messaging.UsageEventOutbox;
import dev.herald.usage.model.ReservationEntity;
import dev.herald.usage.model.UsageMeterEntity;
import dev.herald.usage.repository.ReservationRepository;
import dev.herald.usage.repository.ReservationRepository.WithSubscription;
import dev.herald.usage.repository.SubscriptionRepository;
import dev.herald.usage.repository.UsageMeterRepository;
import dev.herald.usage.service.MeterLocks.MeterPeriod;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Reservations of monthly meters: the synchronous admission of work that a limit can refuse (spec section
 * 8, DESIGN rule "admission is synchronous"). A reservation locks its meter row and checks
 * {@code used + reserved + units <= limit}, so concurrent callers can never overshoot an allowance; a
 * refusal writes nothing. Every change commits with its {@code usage.*} event in the outbox.
 */
@ApplicationScoped
public class ReservationService {

    private final ReservationRepository reservations;
    private final UsageMeterRepository meters;
    private final SubscriptionRepository subscriptions;
    private final MeterLocks meterLocks;
    private final AccountCapacity capacity;
    private final UsageEventOutbox events;
    private final UsageConfig config;
    private final Clock clock;

    public ReservationService(
            ReservationRepository reservations,
            UsageMeterRepository meters,
            SubscriptionRepository subscriptions,
            MeterLocks meterLocks,
            AccountCapacity capacity,
            UsageEventOutbox events,
            UsageConfig config,
            Clock clock) {
        this.reservations = reservations;
        this.meters = meters;
        this.subscriptions = subscriptions;
        this.meterLocks = meterLocks;
        this.capacity = capacity;
        this.events = events;
        this.config = config;
        this.clock = clock;
    }

    /**
     * Reserves {@code units} in the period containing {@code at} (default now). The same id again answers
     * the existing reservation; with another meter or number of units it is a conflict, except for media
     * ({@link #reserveMedia}).
     */
    public Uni<ReservationOutcome> reserve(String workspaceId, Mode mode, ReservationRequest request) {
        if (request.meter() == Meter.MEDIA_BYTES) {
            return Panache.withTransaction(() -> reserveMedia(workspaceId, mode, request))
                    // Two first calls with one id raced: the loser's second look finds the winner's row.
                    .onFailure(UniqueViolation::causedBy)
                    .recoverWithUni(() -> Panache.withTransaction(() -> reserveMedia(workspaceId, mode, request)));
        }
        return Panache.withTransaction(() -> reserveOnce(workspaceId, mode, request))
                // Two first calls with one id raced on different meter rows: the loser answers as a replay.
                .onFailure(UniqueViolation::causedBy)
                .recoverWithUni(() -> Panache.withSession(() -> reservations
                        .findInTenant(workspaceId, mode, request.id())
                        .map(existing -> replay(existing, request))));
    }

    /**
     * Media bytes: one reservation per destination, whatever its number of transfers, charged once for the largest
     * (the spec's rule). The same id with more units grows the reservation to them, checked like a new transfer of
     * that size; with the same or fewer units it answers the reservation unchanged. Growth happens only while the
     * reservation is {@code reserved}; a consumed or released one is answered as it is. The reservation's row is
     * locked before its meter's (consume's order), so concurrent growths of one destination count once.
     */
    private Uni<ReservationOutcome> reserveMedia(String workspaceId, Mode mode, ReservationRequest request) {
        return reservations
                .findInTenantForUpdate(workspaceId, mode, request.id())
                .flatMap(existing -> {
                    if (existing == null) {
                        return reserveOnce(workspaceId, mode, request);
                    }
                    if (!existing.meter.equals(request.meter().wireName())) {
                        return Uni.createFrom().item(replay(existing, request));
                    }
                    if (!UsageReservation.STATUS_RESERVED.equals(existing.status)
                            || existing.units >= request.units()) {
                        return Uni.createFrom().item(new ReservationOutcome(toWire(existing), false));
                    }
                    return grow(existing, request);
                });
    }

    private Uni<ReservationOutcome> grow(ReservationEntity reservation, ReservationRequest request) {
        Mode mode = Mode.fromWire(reservation.mode).orElseThrow();
        Instant now = Timestamps.now(clock);
        Meter meterKind = request.meter();
        UsagePeriod period = new UsagePeriod(reservation.periodStart, reservation.periodEnd);
        return subscriptions.findInTenant(reservation.workspaceId, mode).flatMap(row -> {
            SubscriptionState state = SubscriptionState.of(mode, row);
            // The allowance as it stands now (an upgrade mid-period counts), in the reservation's own period.
            Long limit = meterKind.limitIn(state.allowancesAt(now));
            return meters.lockOrCreate(reservation.workspaceId, mode, meterKind, period, now)
                    .flatMap(meter -> {
                        long othersCounted = meter.used + meter.reserved - reservation.units;
                        if (limit != null && !meterKind.admits(othersCounted, request.units(), limit)) {
                            return Uni.createFrom()
                                    .failure(limitExceeded(
                                            mode, state, reservation.periodStart, now, meterKind, limit, meter));
                        }
                        meter.reserved += request.units() - reservation.units;
                        meter.updatedAt = now;
                        reservation.units = request.units();
                        reservation.updatedAt = now;
                        return reservations
                                .flush()
                                .flatMap(flushed -> emit(UsageEvent.RESERVED, reservation, meter.stateWith(limit)))
                                .map(wire -> new ReservationOutcome(wire, false));
                    });
        });
    }

    private Uni<ReservationOutcome> reserveOnce(String workspaceId, Mode mode, ReservationRequest request) {
        Instant now = Timestamps.now(clock);
        Instant at = request.at() == null ? now : request.at();
        return subscriptions.findInTenant(workspaceId, mode).flatMap(row -> {
            SubscriptionState state = SubscriptionState.of(mode, row);
            UsagePeriod period = state.periodAt(at);
            Long limit = request.meter().limitIn(state.allowancesAt(at));
            return meters.lockOrCreate(workspaceId, mode, request.meter(), period, now)
                    // Read under the meter's lock: a concurrent first call with this id has committed by now.
                    .flatMap(meter -> reservations
                            .findInTenant(workspaceId, mode, request.id())
                            .flatMap(existing -> {
                                if (existing != null) {
                                    return Uni.createFrom().item(replay(existing, request));
                                }
                                if (limit != null
                                        && !request.meter()
                                                .admits(meter.used + meter.reserved, request.units(), limit)) {
                                    return Uni.createFrom()
                                            .failure(
                                                    limitExceeded(mode, state, at, now, request.meter(), limit, meter));
                                }
                                meter.reserved += request.units();
                                meter.updatedAt = now;
                                ReservationEntity reservation = newReservation(workspaceId, mode, request, period, now);
                                return reservations
                                        .persistAndFlush(reservation)
                                        .flatMap(saved -> emit(UsageEvent.RESERVED, saved, meter.stateWith(limit)))
                                        .map(wire -> new ReservationOutcome(wire, true));
                            }));
        });
    }

    /**
     * Reserved to consumed: the units leave {@code reserved} of the reservation's period and count as used in
     * the period containing {@code at} (the completion time; default now). Consuming again answers the
     * reservation as it is; a released reservation cannot be consumed.
     */
    @WithTransaction
    public Uni<UsageReservation> consume(String workspaceId, Mode mode, String id, Instant at) {
        return reservations
                .findInTenantForUpdateWithSubscription(workspaceId, mode, id)
                .onItem()
                .ifNull()
                .failWith(() -> ApiException.notFound("reservation"))
                .flatMap(found -> switch (found.reservation().status) {
                    case UsageReservation.STATUS_CONSUMED -> Uni.createFrom().item(toWire(found.reservation()));
                    case UsageReservation.STATUS_RELEASED ->
                        Uni.createFrom().failure(impossible(found.reservation(), "consumed"));
                    default -> consumeReserved(found, at);
                });
    }

    /** Reserved to released: the units go back to the period's allowance. Releasing again answers it as it is. */
    @WithTransaction
    public Uni<UsageReservation> release(String workspaceId, Mode mode, String id) {
        return lockedOrNotFound(workspaceId, mode, id).flatMap(reservation -> switch (reservation.status) {
            case UsageReservation.STATUS_RELEASED -> Uni.createFrom().item(toWire(reservation));
            case UsageReservation.STATUS_CONSUMED -> Uni.createFrom().failure(impossible(reservation, "released"));
            default -> releaseReserved(List.of(reservation)).map(released -> released.get(0));
        });
    }

    /**
     * Consumes a reservation that is {@code reserved} and locked by the caller's transaction (read with its tenant's
     * subscription), in the period containing {@code at} (default now). Emits {@code usage.consumed}.
     */
    Uni<UsageReservation> consumeReserved(WithSubscription locked, Instant at) {
        ReservationEntity reservation = locked.reservation();
        Mode mode = Mode.fromWire(reservation.mode).orElseThrow();
        Instant now = Timestamps.now(clock);
        Instant completedAt = at == null ? now : at;
        Meter meter = Meter.fromWire(reservation.meter).orElseThrow();
        MeterPeriod reservedIn =
                new MeterPeriod(meter, new UsagePeriod(reservation.periodStart, reservation.periodEnd));
        MeterPeriod usedIn = new MeterPeriod(
                meter, SubscriptionState.of(mode, locked.subscription()).periodAt(completedAt));
        return meterLocks
                .lockInOrder(reservation.workspaceId, mode, List.of(reservedIn, usedIn), now)
                .flatMap(rows -> {
                    rows.get(reservedIn).reserved -= reservation.units;
                    rows.get(usedIn).used += reservation.units;
                    rows.values().forEach(touched -> touched.updatedAt = now);
                    reservation.status = UsageReservation.STATUS_CONSUMED;
                    reservation.consumedPeriodStart = usedIn.period().start();
                    reservation.consumedPeriodEnd = usedIn.period().end();
                    reservation.updatedAt = now;
                    return reservations.flush().flatMap(flushed -> emit(UsageEvent.CONSUMED, reservation));
                });
    }

    /**
     * Releases reservations of one workspace and mode that are {@code reserved} and locked by the caller's
     * transaction (in id order): their units go back to their periods' allowances, whose meter rows are locked in
     * {@link MeterLocks}' order. Emits one {@code usage.released} per reservation.
     */
    Uni<List<UsageReservation>> releaseReserved(List<ReservationEntity> locked) {
        if (locked.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        String workspaceId = locked.get(0).workspaceId;
        Mode mode = Mode.fromWire(locked.get(0).mode).orElseThrow();
        Instant now = Timestamps.now(clock);
        Map<MeterPeriod, Long> units = new LinkedHashMap<>();
        for (ReservationEntity reservation : locked) {
            units.merge(reservedIn(reservation), reservation.units, Long::sum);
        }
        return meterLocks.lockInOrder(workspaceId, mode, units.keySet(), now).flatMap(rows -> {
            units.forEach((key, released) -> {
                UsageMeterEntity row = rows.get(key);
                row.reserved -= released;
                row.updatedAt = now;
            });
            for (ReservationEntity reservation : locked) {
                reservation.status = UsageReservation.STATUS_RELEASED;
                reservation.updatedAt = now;
            }
            return reservations.flush().flatMap(flushed -> emitEach(UsageEvent.RELEASED, locked));
        });
    }

    /**
     * Whether the reserved units could be consumed at {@code at} (default now), changing nothing: in the
     * reservation's own period they are already counted; in another period that period needs room for them
     * ({@code used + reserved + units <= limit}, else {@code 429 usage_limit_exceeded} with that period's
     * details). With {@code requireAccountCapacity} a live workspace over its connected-account limit is
     * {@code 409 account_capacity_exceeded}. With {@code accountId}, an account that no longer holds a connected-account
     * slot (disconnected since its post was accepted) is {@code 409 conflict}, reason {@code account_disconnected}, in
     * the same query. A consumed or released reservation is {@code 409 conflict}.
     */
    @WithSession
    public Uni<UsageReservation> check(
            String workspaceId, Mode mode, String id, boolean requireAccountCapacity, Instant at, String accountId) {
        Uni<WithSubscription> lookup = accountId == null
                ? reservations.findInTenantWithSubscription(workspaceId, mode, id)
                : reservations.findForDelivery(workspaceId, mode, id, accountId).map(row -> {
                    if (row != null && !row.accountConnected()) {
                        // Disconnected after its post was accepted (a race with the acceptance, or a scheduled post).
                        throw new ApiException(
                                ErrorCode.CONFLICT,
                                "Account " + accountId
                                        + " was disconnected after the post was accepted; nothing was published to it.",
                                Map.of("account_id", accountId, "reason", "account_disconnected"));
                    }
                    return row == null ? null : row.found();
                });
        return lookup.onItem()
                .ifNull()
                .failWith(() -> ApiException.notFound("reservation"))
                .flatMap(found -> {
                    ReservationEntity reservation = found.reservation();
                    if (!UsageReservation.STATUS_RESERVED.equals(reservation.status)) {
                        return Uni.createFrom()
                                .failure(new ApiException(
                                        ErrorCode.CONFLICT,
                                        "Reservation " + reservation.id + " is " + reservation.status
                                                + "; only a reserved one can be consumed.",
                                        Map.of("reservation_id", reservation.id, "status", reservation.status)));
                    }
                    Instant now = Timestamps.now(clock);
                    Instant consumedAt = at == null ? now : at;
                    SubscriptionState state = SubscriptionState.of(mode, found.subscription());
                    Uni<Void> admitted = requireAccountCapacity
                            ? capacity.require(workspaceId, mode, state, now)
                            : Uni.createFrom().voidItem();
                    return admitted.flatMap(ok -> requireRoomAt(reservation, state, consumedAt, now))
                            .replaceWith(() -> toWire(reservation));
                });
    }

    private Uni<Void> requireRoomAt(
            ReservationEntity reservation, SubscriptionState state, Instant consumedAt, Instant now) {
        UsagePeriod period = state.periodAt(consumedAt);
        if (period.start().equals(reservation.periodStart)) {
            return Uni.createFrom().voidItem();
        }
        Mode mode = state.mode();
        Meter meter = Meter.fromWire(reservation.meter).orElseThrow();
        Long limit = meter.limitIn(state.allowancesAt(consumedAt));
        if (limit == null) {
            return Uni.createFrom().voidItem();
        }
        return meters.find(reservation.workspaceId, mode, meter, period.start()).flatMap(row -> {
            UsageMeterEntity counted =
                    row != null ? row : emptyMeter(reservation.workspaceId, mode, meter, period, now);
            if (!meter.admits(counted.used + counted.reserved, reservation.units, limit)) {
                return Uni.createFrom().failure(limitExceeded(mode, state, consumedAt, now, meter, limit, counted));
            }
            return Uni.createFrom().voidItem();
        });
    }

    @WithSession
    public Uni<UsageReservation> get(String workspaceId, Mode mode, String id) {
        return reservations
                .findInTenant(workspaceId, mode, id)
                .onItem()
                .ifNull()
                .failWith(() -> ApiException.notFound("reservation"))
                .map(ReservationService::toWire);
    }

    private Uni<ReservationEntity> lockedOrNotFound(String workspaceId, Mode mode, String id) {
        return reservations
                .findInTenantForUpdate(workspaceId, mode, id)
                .onItem()
                .ifNull()
                .failWith(() -> ApiException.notFound("reservation"));
    }

    Uni<UsageReservation> emit(String type, ReservationEntity reservation) {
        return emit(type, reservation, null);
    }

    /** {@code meterState}: the reservation's meter after a {@link UsageEvent#RESERVED} change, else null. */
    Uni<UsageReservation> emit(String type, ReservationEntity reservation, MeterState meterState) {
        UsageReservation wire = toWire(reservation);
        return events.record(
                        type,
                        reservation.workspaceId,
                        Mode.fromWire(reservation.mode).orElseThrow(),
                        wire,
                        meterState)
                .replaceWith(wire);
    }

    /** One event per reservation, recorded one after another (a session runs one statement at a time). */
    Uni<List<UsageReservation>> emitEach(String type, List<ReservationEntity> changed) {
        return emitEach(type, changed, reservation -> null);
    }

    /** One event per reservation, each with its meter's state ({@link #emit(String, ReservationEntity, MeterState)}). */
    Uni<List<UsageReservation>> emitEach(
            String type, List<ReservationEntity> changed, Function<ReservationEntity, MeterState> meterStates) {
        List<UsageReservation> wires = new ArrayList<>();
        Uni<Void> recording = Uni.createFrom().voidItem();
        for (ReservationEntity reservation : changed) {
            recording = recording.flatMap(previous -> emit(type, reservation, meterStates.apply(reservation))
                    .invoke(wires::add)
                    .replaceWithVoid());
        }
        return recording.replaceWith(wires);
    }

    private static MeterPeriod reservedIn(ReservationEntity reservation) {
        return new MeterPeriod(
                Meter.fromWire(reservation.meter).orElseThrow(),
                new UsagePeriod(reservation.periodStart, reservation.periodEnd));
    }

    private static UsageMeterEntity emptyMeter(
            String workspaceId, Mode mode, Meter meter, UsagePeriod period, Instant now) {
        UsageMeterEntity row = new UsageMeterEntity();
        row.workspaceId = workspaceId;
        row.mode = mode.wireName();
        row.meter = meter.wireName();
        row.periodStart = period.start();
        row.periodEnd = period.end();
        row.updatedAt = now;
        return row;
    }

    static ReservationOutcome replay(ReservationEntity existing, ReservationRequest request) {
        if (existing == null) {
            throw new IllegalStateException("a reservation that violated the unique key is gone");
        }
        if (!existing.meter.equals(request.meter().wireName()) || existing.units != request.units()) {
            throw new ApiException(
                    ErrorCode.CONFLICT,
                    "Reservation " + existing.id + " already exists with another meter or number of units.",
                    Map.of("reservation_id", existing.id, "meter", existing.meter, "units", existing.units));
        }
        return new ReservationOutcome(toWire(existing), false);
    }

    static ApiException impossible(ReservationEntity reservation, String wanted) {
        return new ApiException(
                ErrorCode.CONFLICT,
                "Reservation " + reservation.id + " is " + reservation.status + " and cannot be " + wanted + ".",
                Map.of("reservation_id", reservation.id, "status", reservation.status));
    }

    /** {@code 429 usage_limit_exceeded} with the spec's details; Retry-After is the time until the period resets. */
    ApiException limitExceeded(
            Mode mode,
            SubscriptionState state,
            Instant at,
            Instant now,
            Meter meter,
            long limit,
            UsageMeterEntity row) {
        UsagePeriod period = state.periodAt(at);
        UsageLimitExceeded spent = new UsageLimitExceeded(
                meter.wireName(),
                mode,
                state.termsAt(at).plan().wireName(),
                limit,
                row.used,
                row.reserved,
                period.end(),
                config.upgradeUrl(),
                UsageLimitExceeded.secondsUntil(now, period.end()));
        String allowance = "The " + meter.wireName().replace('_', ' ') + " allowance of this period";
        // A large media transfer can be refused with most of the allowance left: say so rather than "used up".
        return spent.toException(
                spent.remaining() == 0
                        ? allowance + " is used up."
                        : allowance + " has " + spent.remaining() + " left, fewer than this needs.");
    }

    static ReservationEntity newReservation(
            String workspaceId, Mode mode, ReservationRequest request, UsagePeriod period, Instant now) {
        ReservationEntity reservation = new ReservationEntity();
        reservation.workspaceId = workspaceId;
        reservation.mode = mode.wireName();
        reservation.id = request.id();
        reservation.meter = request.meter().wireName();
        reservation.units = request.units();
        reservation.status = UsageReservation.STATUS_RESERVED;
        reservation.periodStart = period.start();
        reservation.periodEnd = period.end();
        reservation.createdAt = now;
        reservation.updatedAt = now;
        return reservation;
    }

    /** The reservation as it is once consumed in {@code period} at {@code now}; the entity itself is left as it is. */
    static UsageReservation consumedWire(ReservationEntity reservation, UsagePeriod period, Instant now) {
        return new UsageReservation(
                reservation.id,
                reservation.meter,
                reservation.units,
                UsageReservation.STATUS_CONSUMED,
                new UsagePeriod(reservation.periodStart, reservation.periodEnd),
                period,
                reservation.createdAt,
                now);
    }

    public static UsageReservation toWire(ReservationEntity reservation) {
        UsagePeriod consumedIn = reservation.consumedPeriodStart == null
                ? null
                : new UsagePeriod(reservation.consumedPeriodStart, reservation.consumedPeriodEnd);
        return new UsageReservation(
                reservation.id,
                reservation.meter,
                reservation.units,
                reservation.status,
                new UsagePeriod(reservation.periodStart, reservation.periodEnd),
                consumedIn,
                reservation.createdAt,
                reservation.updatedAt);
    }
}
