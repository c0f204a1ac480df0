package dev.herald.posts.service.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.common.wire.PostQueue;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class QueueSlotsTest {
    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");
    private static final ZoneId NEW_YORK = ZoneId.of("America/New_York");

    private static QueueSlots queue(ZoneId zone, String... slots) {
        return new QueueSlots(
                zone,
                Arrays.stream(slots)
                        .map(slot -> new PostQueue.Slot(slot.split(" ")[0], slot.split(" ")[1]))
                        .toList());
    }

    private static List<Instant> instants(String... texts) {
        return Arrays.stream(texts).map(Instant::parse).toList();
    }

    @Test
    void weeklySlotsComeInOrderFromTheGivenInstant() {
        QueueSlots slots = queue(ZoneId.of("UTC"), "wednesday 18:30", "monday 17:00", "monday 09:00");

        // 2026-11-30 is a Monday; 09:00 that day is before the start and not included.
        assertThat(slots.between(Instant.parse("2026-11-30T09:00:01Z"), Instant.parse("2026-12-07T09:00:00Z")))
                .isEqualTo(instants("2026-11-30T17:00:00Z", "2026-12-02T18:30:00Z", "2026-12-07T09:00:00Z"));
    }

    @Test
    void bothEndsAreIncluded() {
        QueueSlots slots = queue(ZoneId.of("UTC"), "monday 09:00");

        assertThat(slots.between(Instant.parse("2026-11-30T09:00:00Z"), Instant.parse("2026-12-07T09:00:00Z")))
                .isEqualTo(instants("2026-11-30T09:00:00Z", "2026-12-07T09:00:00Z"));
    }

    @Test
    void slotsAreLocalTimesInTheQueuesZone() {
        QueueSlots slots = queue(ZoneId.of("Asia/Tokyo"), "tuesday 08:00");

        // 08:00 on Tuesday in Tokyo (+09:00) is 23:00 UTC on Monday.
        assertThat(slots.between(Instant.parse("2026-11-30T00:00:00Z"), Instant.parse("2026-12-06T00:00:00Z")))
                .isEqualTo(instants("2026-11-30T23:00:00Z"));
    }

    @Test
    void berlinSpringForwardMovesASkippedSlotAnHourLater() {
        // 2026-03-29, 02:00 CET (+01:00) becomes 03:00 CEST (+02:00).
        QueueSlots slots = queue(BERLIN, "sunday 01:30", "sunday 02:30", "sunday 04:00");

        assertThat(slots.between(Instant.parse("2026-03-22T00:00:00Z"), Instant.parse("2026-04-05T23:00:00Z")))
                .isEqualTo(instants(
                        // the Sunday before: every slot at +01:00
                        "2026-03-22T00:30:00Z",
                        "2026-03-22T01:30:00Z",
                        "2026-03-22T03:00:00Z",
                        // the night of the change: 01:30 still +01:00, 02:30 does not exist and is 03:30 +02:00
                        "2026-03-29T00:30:00Z",
                        "2026-03-29T01:30:00Z",
                        "2026-03-29T02:00:00Z",
                        // the Sunday after: every slot at +02:00
                        "2026-04-04T23:30:00Z",
                        "2026-04-05T00:30:00Z",
                        "2026-04-05T02:00:00Z"));
    }

    @Test
    void aSkippedSlotLandingOnAnotherSlotPostsOnce() {
        QueueSlots slots = queue(BERLIN, "sunday 02:30", "sunday 03:30");

        assertThat(slots.between(Instant.parse("2026-03-28T12:00:00Z"), Instant.parse("2026-03-29T12:00:00Z")))
                .isEqualTo(instants("2026-03-29T01:30:00Z"));
    }

    @Test
    void berlinFallBackPostsARepeatedSlotOnceAtItsFirstOccurrence() {
        // 2026-10-25, 03:00 CEST (+02:00) becomes 02:00 CET (+01:00): 02:00 to 03:00 happens twice.
        QueueSlots slots = queue(BERLIN, "sunday 01:30", "sunday 02:30", "sunday 03:30");

        assertThat(slots.between(Instant.parse("2026-10-17T12:00:00Z"), Instant.parse("2026-11-01T12:00:00Z")))
                .isEqualTo(instants(
                        "2026-10-17T23:30:00Z",
                        "2026-10-18T00:30:00Z",
                        "2026-10-18T01:30:00Z",
                        // 02:30 at +02:00 (00:30Z), not again at +01:00 (01:30Z); 03:30 is already +01:00
                        "2026-10-24T23:30:00Z",
                        "2026-10-25T00:30:00Z",
                        "2026-10-25T02:30:00Z",
                        "2026-11-01T00:30:00Z",
                        "2026-11-01T01:30:00Z",
                        "2026-11-01T02:30:00Z"));
    }

    @Test
    void newYorkSpringForwardKeepsTheSlotsInInstantOrder() {
        // 2026-03-08, 02:00 EST (-05:00) becomes 03:00 EDT (-04:00).
        QueueSlots slots = queue(NEW_YORK, "sunday 01:30", "sunday 02:30", "sunday 03:00");

        assertThat(slots.between(Instant.parse("2026-03-01T00:00:00Z"), Instant.parse("2026-03-15T12:00:00Z")))
                .isEqualTo(instants(
                        "2026-03-01T06:30:00Z",
                        "2026-03-01T07:30:00Z",
                        "2026-03-01T08:00:00Z",
                        // 02:30 is 03:30 EDT (07:30Z), after 03:00 EDT (07:00Z)
                        "2026-03-08T06:30:00Z",
                        "2026-03-08T07:00:00Z",
                        "2026-03-08T07:30:00Z",
                        "2026-03-15T05:30:00Z",
                        "2026-03-15T06:30:00Z",
                        "2026-03-15T07:00:00Z"));
    }

    @Test
    void newYorkFallBackPostsARepeatedSlotOnce() {
        // 2026-11-01, 02:00 EDT (-04:00) becomes 01:00 EST (-05:00): 01:00 to 02:00 happens twice.
        QueueSlots slots = queue(NEW_YORK, "sunday 00:30", "sunday 01:30", "sunday 02:30");

        assertThat(slots.between(Instant.parse("2026-10-25T00:00:00Z"), Instant.parse("2026-11-08T12:00:00Z")))
                .isEqualTo(instants(
                        "2026-10-25T04:30:00Z",
                        "2026-10-25T05:30:00Z",
                        "2026-10-25T06:30:00Z",
                        // 01:30 at -04:00 (05:30Z) only, not at -05:00 (06:30Z)
                        "2026-11-01T04:30:00Z",
                        "2026-11-01T05:30:00Z",
                        "2026-11-01T07:30:00Z",
                        "2026-11-08T05:30:00Z",
                        "2026-11-08T06:30:00Z",
                        "2026-11-08T07:30:00Z"));
    }

    @Test
    void aYearOfHourlySlotsIsEverySlotOnce() {
        List<String> all = new java.util.ArrayList<>();
        for (String day : PostQueue.DAYS) {
            for (int hour = 0; hour < 24; hour++) {
                all.add(day + " %02d:00".formatted(hour));
            }
        }
        QueueSlots slots = queue(BERLIN, all.toArray(String[]::new));

        List<Instant> year =
                slots.between(Instant.parse("2026-01-01T00:00:00Z"), Instant.parse("2026-12-31T23:00:00Z"));

        // Every hour of 2026 but the one Berlin skips in March (02:00 becomes 03:00, the same instant); the repeated
        // hour in October is one instant of the hourly grid that no slot names twice.
        assertThat(year).hasSize(365 * 24 - 1).doesNotHaveDuplicates().isSorted();
    }
}
