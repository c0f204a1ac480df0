package dev.herald.posts.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.common.wire.PostSeries;
import java.time.Instant;
import java.time.Period;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import org.junit.jupiter.api.Test;

class RecurrenceTest {
    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");
    private static final ZoneId NEW_YORK = ZoneId.of("America/New_York");

    private static Recurrence weekly(String firstLocal, ZoneId zone, int count) {
        Instant first = ZonedDateTime.of(java.time.LocalDateTime.parse(firstLocal), zone)
                .toInstant();
        return Recurrence.of(new PostSeries.Repeat("P7D", null, count, zone.getId()), first);
    }

    @Test
    void aWeeklyPostAtNineInBerlinStaysAtNineLocalAcrossTheMarchChange() {
        // 2027-03-28: clocks go from 02:00 CET to 03:00 CEST.
        Recurrence recurrence = weekly("2027-03-21T09:00:00", BERLIN, 3);

        assertThat(recurrence.at(0)).isEqualTo(Instant.parse("2027-03-21T08:00:00Z"));
        assertThat(recurrence.at(1)).isEqualTo(Instant.parse("2027-03-28T07:00:00Z"));
        assertThat(recurrence.at(2)).isEqualTo(Instant.parse("2027-04-04T07:00:00Z"));
        assertThat(ZonedDateTime.ofInstant(recurrence.at(1), BERLIN).getHour()).isEqualTo(9);
    }

    @Test
    void aWeeklyPostInNewYorkStaysAtItsLocalTimeAcrossTheNovemberChange() {
        // 2026-11-01: clocks go back from 02:00 EDT to 01:00 EST.
        Recurrence recurrence = weekly("2026-10-25T18:30:00", NEW_YORK, 2);

        assertThat(recurrence.at(0)).isEqualTo(Instant.parse("2026-10-25T22:30:00Z"));
        assertThat(recurrence.at(1)).isEqualTo(Instant.parse("2026-11-01T23:30:00Z"));
    }

    @Test
    void aLocalTimeTheZoneSkipsMovesOnByTheGapAndARepeatedOneIsItsFirstOccurrence() {
        // 02:30 does not exist in Berlin on 2027-03-28: it becomes 03:30 CEST.
        Recurrence skipped = weekly("2027-03-21T02:30:00", BERLIN, 2);
        assertThat(skipped.at(1)).isEqualTo(Instant.parse("2027-03-28T01:30:00Z"));
        // 02:30 happens twice in Berlin on 2026-10-25: the first, still CEST.
        Recurrence repeated = weekly("2026-10-18T02:30:00", BERLIN, 2);
        assertThat(repeated.at(1)).isEqualTo(Instant.parse("2026-10-25T00:30:00Z"));
    }

    @Test
    void aMonthlyPostOnThe31stTakesTheLastDayOfShortMonthsAndComesBackToThe31st() {
        Recurrence monthly =
                Recurrence.of(new PostSeries.Repeat("P1M", null, 4, "UTC"), Instant.parse("2027-01-31T10:00:00Z"));

        assertThat(monthly.at(1)).isEqualTo(Instant.parse("2027-02-28T10:00:00Z"));
        assertThat(monthly.at(2)).isEqualTo(Instant.parse("2027-03-31T10:00:00Z"));
        assertThat(monthly.at(3)).isEqualTo(Instant.parse("2027-04-30T10:00:00Z"));
    }

    @Test
    void countIncludesTheFirstPostAndUntilIncludesAPostAtItsVeryTime() {
        Instant first = Instant.parse("2027-01-01T09:00:00Z");
        Recurrence counted = Recurrence.of(new PostSeries.Repeat("P1D", null, 3, "UTC"), first);
        assertThat(counted.includes(2)).isTrue();
        assertThat(counted.includes(3)).isFalse();

        Recurrence until =
                Recurrence.of(new PostSeries.Repeat("P1W", Instant.parse("2027-01-15T09:00:00Z"), null, "UTC"), first);
        assertThat(until.includes(2)).isTrue();
        assertThat(until.includes(3)).isFalse();
    }

    @Test
    void aCopyIsCreatedWhenThePostBeforeFallsDueButNeverMoreThanAYearAhead() {
        Instant first = Instant.parse("2027-06-01T09:00:00Z");
        Recurrence weekly = Recurrence.of(new PostSeries.Repeat("P1W", null, 3, "UTC"), first);
        assertThat(weekly.createAt(1)).isEqualTo(first);
        assertThat(weekly.createAt(2)).isEqualTo(weekly.at(1));

        // 2028 is a leap year: a year from 2027-06-01 is 366 days.
        Recurrence yearly = Recurrence.of(new PostSeries.Repeat("P1Y", null, 2, "UTC"), first);
        assertThat(yearly.at(1)).isEqualTo(Instant.parse("2028-06-01T09:00:00Z"));
        assertThat(yearly.createAt(1)).isEqualTo(Instant.parse("2027-06-02T10:00:00Z"));
    }

    @Test
    void everyIsAPeriodOfWholeDaysWeeksOrMonthsFromADayToAYear() {
        assertThat(Recurrence.period("P1D")).contains(Period.ofDays(1));
        assertThat(Recurrence.period("P1W")).contains(Period.ofDays(7));
        assertThat(Recurrence.period("P12M")).contains(Period.ofMonths(12));
        assertThat(Recurrence.period("P1Y")).contains(Period.ofYears(1));
        assertThat(Recurrence.period("P366D")).isPresent();
        for (String refused : new String[] {"P0D", "P367D", "P53W", "P13M", "P2Y", "PT1H", "P1M2D", "p1d", "1D", ""}) {
            assertThat(Recurrence.period(refused)).as(refused).isEmpty();
        }
    }
}
