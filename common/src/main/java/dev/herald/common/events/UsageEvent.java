package dev.herald.common.events;

import dev.herald.common.auth.Mode;
import dev.herald.common.wire.UsageReservation;
import java.time.Instant;

/**
 * A reservation changed, on {@link Topics#USAGE_RESERVED} keyed by {@code workspace_id:mode}.
 * {@code reservation} is the reservation after the change; consumers deduplicate by {@code event_id}.
 */
public record UsageEvent(
        String eventId, String type, Instant occurredAt, String workspaceId, Mode mode, UsageReservation reservation) {
    public static final String RESERVED = "usage.reserved";
    public static final String CONSUMED = "usage.consumed";
    public static final String RELEASED = "usage.released";

    /** The Kafka key: every event of one workspace and mode stays in order. */
    public static String key(String workspaceId, Mode mode) {
        return workspaceId + ":" + mode.wireName();
    }
}
