package dev.herald.common.events;

import dev.herald.common.auth.Mode;
import dev.herald.common.wire.UsageReservation;
import java.time.Instant;

/**
 * A reservation changed, on {@link Topics#USAGE_RESERVED} keyed by {@code workspace_id:mode}.
 * {@code reservation} is the reservation after the change; consumers deduplicate by {@code event_id}.
 * {@code meterState} is the reservation's meter in its period right after the change, on {@link #RESERVED} events
 * (the only change that is checked against the allowance, so the only one whose limit is at hand); null on the others.
 */
public record UsageEvent(
        String eventId,
        String type,
        Instant occurredAt,
        String workspaceId,
        Mode mode,
        UsageReservation reservation,
        MeterState meterState) {
    public static final String RESERVED = "usage.reserved";
    public static final String CONSUMED = "usage.consumed";
    public static final String RELEASED = "usage.released";

    /** A meter in one period: units used and reserved, and the allowance ({@code limit}, null when unlimited). */
    public record MeterState(long used, long reserved, Long limit) {}

    /** The Kafka key: every event of one workspace and mode stays in order. */
    public static String key(String workspaceId, Mode mode) {
        return workspaceId + ":" + mode.wireName();
    }
}
