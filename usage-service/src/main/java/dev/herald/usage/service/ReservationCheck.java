package dev.herald.usage.service;

import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.auth.Mode;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.UsagePeriod;
import dev.herald.common.wire.UsageReservation;
import dev.herald.usage.catalog.Meter;
import dev.herald.usage.model.ReservationEntity;
import dev.herald.usage.model.UsageMeterEntity;
import dev.herald.usage.repository.ReservationRepository;
import dev.herald.usage.repository.ReservationRepository.WithSubscription;
import dev.herald.usage.repository.UsageMeterRepository;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;

/**
 * The read-only check the delivery worker makes before it publishes: whether a reservation could still be consumed
 * (spec section 8). It locks nothing and writes nothing; {@link ReservationService#consume} decides for good.
 */
@ApplicationScoped
public class ReservationCheck {

    private final ReservationRepository reservations;
    private final UsageMeterRepository meters;
    private final AccountCapacity capacity;
    private final UsageLimitRefusal refusal;
    private final Clock clock;

    public ReservationCheck(
            ReservationRepository reservations,
            UsageMeterRepository meters,
            AccountCapacity capacity,
            UsageLimitRefusal refusal,
            Clock clock) {
        this.reservations = reservations;
        this.meters = meters;
        this.capacity = capacity;
        this.refusal = refusal;
        this.clock = clock;
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
                            .replaceWith(() -> ReservationWire.of(reservation));
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
                return Uni.createFrom()
                        .failure(refusal.limitExceeded(mode, state, consumedAt, now, meter, limit, counted));
            }
            return Uni.createFrom().voidItem();
        });
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
}
