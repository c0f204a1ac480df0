package dev.herald.usage.service;

import dev.herald.usage.catalog.Meter;
import java.time.Instant;

/** A validated {@code POST /internal/reservations}; {@code at} is null for "now". */
public record ReservationRequest(String id, Meter meter, long units, Instant at) {}
