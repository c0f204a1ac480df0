package dev.herald.posts.service.queue;

import dev.herald.common.wire.PostQueue;
import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The instants a weekly queue's slots fall on, in order. A slot is a local time on a day of the week in the queue's
 * zone, resolved as RFC 5545 resolves local times (and as {@link ZonedDateTime#ofLocal} does with no preferred
 * offset): a time in a skipped hour keeps the offset from before the transition, so 02:30 on a spring-forward night
 * is 03:30 in the new offset; a time in a repeated hour is its first occurrence only, so the slot posts once. Two
 * slots that resolve to the same instant (02:30 and 03:30 that night) are one slot.
 */
public final class QueueSlots {
    private final ZoneId zone;
    private final Map<DayOfWeek, List<LocalTime>> times = new EnumMap<>(DayOfWeek.class);

    public QueueSlots(ZoneId zone, List<PostQueue.Slot> slots) {
        this.zone = zone;
        for (PostQueue.Slot slot : slots) {
            DayOfWeek day = DayOfWeek.of(PostQueue.DAYS.indexOf(slot.day()) + 1);
            times.computeIfAbsent(day, key -> new ArrayList<>()).add(LocalTime.parse(slot.time()));
        }
    }

    public static QueueSlots of(PostQueue queue) {
        return new QueueSlots(ZoneId.of(queue.timezone()), queue.slots());
    }

    /** Every slot instant from {@code from} to {@code to}, both included, earliest first. */
    public List<Instant> between(Instant from, Instant to) {
        List<Instant> instants = new ArrayList<>();
        if (times.isEmpty() || from.isAfter(to)) {
            return instants;
        }
        // A day's slots resolve to instants from its midnight at the highest offset there is, never earlier (a gap
        // only moves a time later); one day before and after covers every zone's offsets.
        TreeSet<Instant> resolved = new TreeSet<>();
        LocalDate last = LocalDate.ofInstant(to, ZoneOffset.MIN).plusDays(1);
        for (LocalDate day = LocalDate.ofInstant(from, ZoneOffset.MAX).minusDays(1);
                !day.isAfter(last);
                day = day.plusDays(1)) {
            for (LocalTime time : times.getOrDefault(day.getDayOfWeek(), List.of())) {
                Instant at = ZonedDateTime.ofLocal(LocalDateTime.of(day, time), zone, null)
                        .toInstant();
                if (!at.isBefore(from) && !at.isAfter(to)) {
                    resolved.add(at);
                }
            }
        }
        instants.addAll(resolved);
        return instants;
    }
}
