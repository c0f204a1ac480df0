package dev.herald.usage.service;

import dev.herald.common.wire.UsageReservation;

/** The reservation, and whether this call created it ({@code 201}) or found it ({@code 200}, a replay). */
public record ReservationOutcome(UsageReservation reservation, boolean created) {}
