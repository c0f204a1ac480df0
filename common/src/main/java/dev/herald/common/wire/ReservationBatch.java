package dev.herald.common.wire;

import java.time.Instant;
import java.util.List;

/**
 * usage-service's {@code POST /internal/reservations/batch}: reserves every item or none, in one transaction
 * (answers {@code 201 {"data": [UsageReservation]}}, or {@code 200} when every item was already reserved by
 * an earlier call). With {@code requireAccountCapacity} a live workspace that has more accounts connected
 * than its plan allows is refused {@code 409 account_capacity_exceeded}; an allowance that the items would
 * exceed is refused {@code 429 usage_limit_exceeded}, both with the spec's details and nothing reserved.
 */
public record ReservationBatch(List<Item> reservations, boolean requireAccountCapacity) {
    /** One reservation: {@code at} picks the period (null for now). */
    public record Item(String reservationId, String meter, long units, Instant at) {}
}
