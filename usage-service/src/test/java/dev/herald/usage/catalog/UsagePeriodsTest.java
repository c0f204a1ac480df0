package dev.herald.usage.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.common.auth.Mode;
import dev.herald.common.wire.UsagePeriod;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class UsagePeriodsTest {
    private static Instant t(String text) {
        return Instant.parse(text);
    }

    @Test
    void calendarMonthsRunFromTheFirstToTheFirstInUtc() {
        assertThat(UsagePeriods.calendarMonth(t("2026-02-28T23:59:59.999999Z")))
                .isEqualTo(new UsagePeriod(t("2026-02-01T00:00:00Z"), t("2026-03-01T00:00:00Z")));
        assertThat(UsagePeriods.calendarMonth(t("2026-12-01T00:00:00Z")))
                .isEqualTo(new UsagePeriod(t("2026-12-01T00:00:00Z"), t("2027-01-01T00:00:00Z")));
    }

    @Test
    void aSubscriptionStartedOnThe31stRenewsOnTheLastDayOfShortMonthsAndOnThe31stAgain() {
        Instant start = t("2026-01-31T10:00:00Z");
        assertThat(UsagePeriods.anniversary(start, t("2026-01-31T10:00:00Z")))
                .isEqualTo(new UsagePeriod(t("2026-01-31T10:00:00Z"), t("2026-02-28T10:00:00Z")));
        assertThat(UsagePeriods.anniversary(start, t("2026-02-28T09:59:59Z")))
                .isEqualTo(new UsagePeriod(t("2026-01-31T10:00:00Z"), t("2026-02-28T10:00:00Z")));
        assertThat(UsagePeriods.anniversary(start, t("2026-02-28T10:00:00Z")))
                .isEqualTo(new UsagePeriod(t("2026-02-28T10:00:00Z"), t("2026-03-31T10:00:00Z")));
        assertThat(UsagePeriods.anniversary(start, t("2026-04-15T00:00:00Z")))
                .isEqualTo(new UsagePeriod(t("2026-03-31T10:00:00Z"), t("2026-04-30T10:00:00Z")));
        assertThat(UsagePeriods.anniversary(start, t("2027-02-01T00:00:00Z")))
                .isEqualTo(new UsagePeriod(t("2027-01-31T10:00:00Z"), t("2027-02-28T10:00:00Z")));
        // Before the start: the periods extend backwards from the same anchor.
        assertThat(UsagePeriods.anniversary(start, t("2026-01-15T00:00:00Z")))
                .isEqualTo(new UsagePeriod(t("2025-12-31T10:00:00Z"), t("2026-01-31T10:00:00Z")));
    }

    @Test
    void onlyALiveSubscriptionHasAnniversaryPeriods() {
        Instant start = t("2026-01-15T08:00:00Z");
        Instant at = t("2026-03-20T00:00:00Z");
        assertThat(UsagePeriods.containing(Mode.LIVE, PlanSource.SUBSCRIPTION, start, at))
                .isEqualTo(new UsagePeriod(t("2026-03-15T08:00:00Z"), t("2026-04-15T08:00:00Z")));
        for (PlanSource source : new PlanSource[] {PlanSource.FREE, PlanSource.COMP, PlanSource.BETA}) {
            assertThat(UsagePeriods.containing(Mode.LIVE, source, start, at)).isEqualTo(UsagePeriods.calendarMonth(at));
        }
        assertThat(UsagePeriods.containing(Mode.TEST, PlanSource.SUBSCRIPTION, start, at))
                .isEqualTo(UsagePeriods.calendarMonth(at));
    }

    @Test
    void theCatalogHasTheSpecsAllowances() {
        Allowances scale = PlanCatalog.allowances(Plan.SCALE, Mode.LIVE);
        assertThat(scale).isEqualTo(new Allowances(100, 5_000, 500_000_000_000L, 250_000, 50_000L, 300, 10, 200L));
        assertThat(PlanCatalog.allowances(Plan.STARTER, Mode.TEST))
                .isEqualTo(new Allowances(10, 1_000, null, 10_000, null, 60, 2, null));
    }
}
