package dev.herald.common.wire;

import java.time.Instant;
import java.util.List;

/**
 * A profile's posting queue ({@code GET|PUT /profiles/{id}/queue}): a weekly schedule of slots in the profile's own
 * IANA time zone. A post with {@code "scheduled_at": "next_slot"} takes the earliest slot no other post of the profile
 * holds. Local times follow the zone as RFC 5545 does: a slot in a skipped hour (spring forward) is the same local
 * time with the offset from before the transition (02:30 becomes 03:30), and a slot in a repeated hour (fall back)
 * is its first occurrence only. {@code slots} are in the order {@link #SLOT_ORDER} (day of week, then time).
 */
public record PostQueue(String profileId, String timezone, List<Slot> slots, Instant updatedAt) {
    /** At most this many slots a week (one every hour of the week). */
    public static final int MAX_SLOTS = 168;

    /** The days as the API spells them, Monday first. */
    public static final List<String> DAYS =
            List.of("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday");

    /** {@code day} is one of {@link #DAYS}; {@code time} is the local time {@code HH:MM} (24-hour clock). */
    public record Slot(String day, String time) {}

    /** How {@link #slots} are ordered: day of week from Monday, then time. */
    public static final java.util.Comparator<Slot> SLOT_ORDER = java.util.Comparator.<Slot>comparingInt(
                    slot -> DAYS.indexOf(slot.day()))
            .thenComparing(Slot::time);
}
