package dev.herald.common.wire;

import java.time.Instant;

/**
 * usage-service's {@code POST /internal/reservations/{id}/check}, asked by the delivery worker right before
 * it delivers: may the reserved units be consumed at {@code at} (null for now)? Answers
 * {@code 200 {"data": UsageReservation}} when yes; {@code 429 usage_limit_exceeded} when the period of
 * {@code at} has no room for them (the units were reserved in an earlier period whose successor is full);
 * with {@code requireAccountCapacity}, {@code 409 account_capacity_exceeded} when a live workspace has more
 * accounts connected than its plan allows; with {@code accountId}, {@code 409 conflict} (details {@code reason}
 * {@code account_disconnected}) when that account no longer holds a slot, i.e. was disconnected after its post was
 * accepted. It changes nothing.
 */
public record ReservationCheck(boolean requireAccountCapacity, Instant at, String accountId) {}
