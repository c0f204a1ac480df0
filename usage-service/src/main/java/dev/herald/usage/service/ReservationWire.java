package dev.herald.usage.service;

import dev.herald.common.wire.UsagePeriod;
import dev.herald.common.wire.UsageReservation;
import dev.herald.usage.model.ReservationEntity;
import java.time.Instant;

/** A reservation row as the wire's {@link UsageReservation}. */
public final class ReservationWire {

    private ReservationWire() {}

    /** The reservation as it is once consumed in {@code period} at {@code now}; the entity itself is left as it is. */
    static UsageReservation consumed(ReservationEntity reservation, UsagePeriod period, Instant now) {
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

    public static UsageReservation of(ReservationEntity reservation) {
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
