package dev.herald.gateway.rest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.common.auth.Mode;
import dev.herald.common.wire.PlanAllowances;
import dev.herald.common.wire.Usage;
import dev.herald.common.wire.UsagePeriod;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UsagePageTest {
    private static final Instant START = Instant.parse("2026-03-01T00:00:00Z");
    private static final Instant END = Instant.parse("2026-04-01T00:00:00Z");

    private static Usage usage(String plan, Usage.Meter publications) {
        Usage.Meter api = new Usage.Meter(10, 0, 2_000, 1_990, END);
        return new Usage(
                Mode.LIVE,
                plan,
                "free",
                "2026-09",
                new UsagePeriod(START, END),
                END,
                null,
                new Usage.Accounts(1, 2, 1),
                publications,
                api,
                null,
                null,
                null,
                new Usage.RateLimit(30),
                1);
    }

    private static PlanAllowances plan(String name, long apiRequests) {
        return new PlanAllowances(name, 2, 20, null, apiRequests, null, null, new PlanAllowances.RateLimit(30), 1);
    }

    private static final List<PlanAllowances> CATALOG =
            List.of(plan("free", 2_000), plan("starter", 25_000), plan("scale", 250_000));

    @Test
    void aMeterOverItsLimitFillsTheBarAndReservedUnitsNeverReachPastIt() {
        UsagePage page = UsagePage.of(
                usage("free", new Usage.Meter(18, 5, 20, 0, END)), Map.of(), LocalDate.parse("2026-03-10"), CATALOG);
        UsagePage.MeterRow publications = page.meters().get(1);
        assertThat(publications.usedWidth()).isEqualTo("90");
        assertThat(publications.reservedWidth()).isEqualTo("10");

        UsagePage over = UsagePage.of(
                usage("free", new Usage.Meter(25, 0, 20, 0, END)), Map.of(), LocalDate.parse("2026-03-10"), CATALOG);
        assertThat(over.meters().get(1).usedWidth()).isEqualTo("100");
        assertThat(over.meters().get(3).metered())
                .as("a null meter is not metered")
                .isFalse();
    }

    @Test
    void theChartRunsFromThePeriodsFirstDayToTodayScaledToTheBusiestDay() {
        UsagePage page = UsagePage.of(
                usage("free", new Usage.Meter(0, 0, 20, 20, END)),
                Map.of(LocalDate.parse("2026-03-02"), 4L, LocalDate.parse("2026-03-03"), 8L),
                LocalDate.parse("2026-03-03"),
                CATALOG);
        assertThat(page.days()).extracting(UsagePage.DayBar::requests).containsExactly(0L, 4L, 8L);
        assertThat(page.days()).extracting(UsagePage.DayBar::height).containsExactly("0", "50", "100");
        assertThat(page.chartViewBox()).isEqualTo("0 0 30 114");
        // A day after the period (a clock ahead of usage-service's) is not drawn.
        assertThat(UsagePage.of(usage("free", null), Map.of(), LocalDate.parse("2026-04-05"), CATALOG)
                        .days())
                .hasSize(31);
    }

    @Test
    void theNextPlanIsTheCatalogsFollowingOneAndTheLastHasNone() {
        UsagePage free = UsagePage.of(usage("free", null), Map.of(), LocalDate.parse("2026-03-10"), CATALOG);
        assertThat(free.plans().next()).isEqualTo("starter");
        assertThat(free.plans().rows().get(2))
                .isEqualTo(new UsagePage.PlanRow("API requests a month", "2,000", "25,000"));
        assertThat(free.plans().rows().get(3).current()).isEqualTo("unlimited");

        UsagePage scale = UsagePage.of(usage("scale", null), Map.of(), LocalDate.parse("2026-03-10"), CATALOG);
        assertThat(scale.plans().current()).isEqualTo("scale");
        assertThat(scale.plans().next()).isNull();
        assertThat(UsagePage.of(usage("free", null), Map.of(), LocalDate.parse("2026-03-10"), List.of())
                        .plans()
                        .available())
                .isFalse();
    }
}
