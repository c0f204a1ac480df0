package dev.herald.usage.service;

import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.auth.Mode;
import dev.herald.common.events.UsageEvent;
import dev.herald.common.persistence.UniqueViolation;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.UsagePeriod;
import dev.herald.common.wire.UsageReservation;
import dev.herald.usage.catalog.Meter;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reservations of monthly meters: the synchronous admission of work that a limit can refuse (spec section
 * 8, DESIGN rule "admission is synchronous"). A reservation locks its meter row and checks
 * {@code used + reserved + units <= limit}, so concurrent callers can never overshoot an allowance; a
 * refusal writes nothing. Every change commits with its {@code usage.*} event in the outbox.
 *
 * <p>A little over 300 lines: a reservation's whole life (reserve, grow, consume, release) stays in one class, because
 * every step takes the same meter lock and keeps the meter's {@code reserved} in step with the reservation.
 */
@ApplicationScoped
public class ReservationService {

    private final ReservationRepository reservations;
    private final UsageMeterRepository meters;
    private final SubscriptionRepository subscriptions;
    private final MeterLocks meterLocks;
    private final ReservationEvents events;
    private final UsageLimitRefusal refusal;
    private final Clock clock;

    public ReservationService(
            ReservationRepository reservations,
            UsageMeterRepository meters,
            SubscriptionRepository subscriptions,
            MeterLocks meterLocks,
            ReservationEvents events,
            UsageLimitRefusal refusal,
            Clock clock) {
        this.reservations = reservations;
        this.meters = meters;
        this.subscriptions = subscriptions;
        this.meterLocks = meterLocks;
        this.events = events;
        this.refusal = refusal;
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
                        return Uni.createFrom().item(new ReservationOutcome(ReservationWire.of(existing), false));
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
                                    .failure(refusal.limitExceeded(
                                            mode, state, reservation.periodStart, now, meterKind, limit, meter));
                        }
                        meter.reserved += request.units() - reservation.units;
                        meter.updatedAt = now;
                        reservation.units = request.units();
                        reservation.updatedAt = now;
                        return reservations
                                .flush()
                                .flatMap(flushed ->
                                        events.emit(UsageEvent.RESERVED, reservation, meter.stateWith(limit)))
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
                                            .failure(refusal.limitExceeded(
                                                    mode, state, at, now, request.meter(), limit, meter));
                                }
                                meter.reserved += request.units();
                                meter.updatedAt = now;
                                ReservationEntity reservation = newReservation(workspaceId, mode, request, period, now);
                                return reservations
                                        .persistAndFlush(reservation)
                                        .flatMap(saved ->
                                                events.emit(UsageEvent.RESERVED, saved, meter.stateWith(limit)))
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
                    case UsageReservation.STATUS_CONSUMED ->
                        Uni.createFrom().item(ReservationWire.of(found.reservation()));
                    case UsageReservation.STATUS_RELEASED ->
                        Uni.createFrom().failure(impossible(found.reservation(), "consumed"));
                    default -> consumeReserved(found, at);
                });
    }

    /** Reserved to released: the units go back to the period's allowance. Releasing again answers it as it is. */
    @WithTransaction
    public Uni<UsageReservation> release(String workspaceId, Mode mode, String id) {
        return lockedOrNotFound(workspaceId, mode, id).flatMap(reservation -> switch (reservation.status) {
            case UsageReservation.STATUS_RELEASED -> Uni.createFrom().item(ReservationWire.of(reservation));
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
                    return reservations.flush().flatMap(flushed -> events.emit(UsageEvent.CONSUMED, reservation));
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
            return reservations.flush().flatMap(flushed -> events.emitEach(UsageEvent.RELEASED, locked));
        });
    }

    @WithSession
    public Uni<UsageReservation> get(String workspaceId, Mode mode, String id) {
        return reservations
                .findInTenant(workspaceId, mode, id)
                .onItem()
                .ifNull()
                .failWith(() -> ApiException.notFound("reservation"))
                .map(ReservationWire::of);
    }

    private Uni<ReservationEntity> lockedOrNotFound(String workspaceId, Mode mode, String id) {
        return reservations
                .findInTenantForUpdate(workspaceId, mode, id)
                .onItem()
                .ifNull()
                .failWith(() -> ApiException.notFound("reservation"));
    }

    private static MeterPeriod reservedIn(ReservationEntity reservation) {
        return new MeterPeriod(
                Meter.fromWire(reservation.meter).orElseThrow(),
                new UsagePeriod(reservation.periodStart, reservation.periodEnd));
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
        return new ReservationOutcome(ReservationWire.of(existing), false);
    }

    static ApiException impossible(ReservationEntity reservation, String wanted) {
        return new ApiException(
                ErrorCode.CONFLICT,
                "Reservation " + reservation.id + " is " + reservation.status + " and cannot be " + wanted + ".",
                Map.of("reservation_id", reservation.id, "status", reservation.status));
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
}
