package dev.herald.usage.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.common.auth.Mode;
import dev.herald.common.wire.UsagePeriod;
import dev.herald.usage.catalog.Meter;
import dev.herald.usage.catalog.Plan;
import dev.herald.usage.catalog.PlanSource;
import dev.herald.usage.model.UsageMeterEntity;
import dev.herald.usage.service.MeterLocks.MeterPeriod;
import dev.herald.usage.service.ReservationBatchDecision.Demand;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReservationBatchDecisionTest {
    private static final Instant NOW = Instant.parse("2026-03-20T12:00:00Z");
    private static final Instant IN_APRIL = Instant.parse("2026-04-02T00:00:00Z");
    /** Live, no plan given: free (20 publications), calendar months. */
    private static final SubscriptionState FREE = SubscriptionState.initial(Mode.LIVE);

    private static final UsagePeriod MARCH = FREE.periodAt(NOW);
    private static final UsagePeriod APRIL = FREE.periodAt(IN_APRIL);

    private static ReservationRequest publication(String id, Instant at) {
        return new ReservationRequest(id, Meter.PUBLICATIONS, 1, at);
    }

    private static UsageMeterEntity row(long used, long reserved) {
        UsageMeterEntity row = new UsageMeterEntity();
        row.used = used;
        row.reserved = reserved;
        return row;
    }

    @Test
    void aPostsItemsChargeOneMeterRowTogether() {
        List<ReservationRequest> items = List.of(publication("rsv_1", null), publication("rsv_2", null));
        Demand demand = ReservationBatchDecision.onOneMeterRow(items, FREE, NOW);
        assertThat(demand).isEqualTo(new Demand(new MeterPeriod(Meter.PUBLICATIONS, MARCH), NOW, 20L, 2));
        assertThat(ReservationBatchDecision.demands(items, FREE, NOW)).containsExactly(demand);
    }

    @Test
    void itemsInTwoPeriodsAreTwoDemandsInLockOrderAndNotOneStatement() {
        List<ReservationRequest> items =
                List.of(publication("rsv_1", IN_APRIL), publication("rsv_2", NOW), publication("rsv_3", IN_APRIL));
        assertThat(ReservationBatchDecision.onOneMeterRow(items, FREE, NOW)).isNull();
        assertThat(ReservationBatchDecision.demands(items, FREE, NOW))
                .containsExactly(
                        new Demand(new MeterPeriod(Meter.PUBLICATIONS, MARCH), NOW, 20L, 1),
                        new Demand(new MeterPeriod(Meter.PUBLICATIONS, APRIL), IN_APRIL, 20L, 2));
    }

    @Test
    void mediaOrNothingIsNeverOneStatement() {
        List<ReservationRequest> media = List.of(new ReservationRequest("rsv_1", Meter.MEDIA_BYTES, 100, null));
        assertThat(ReservationBatchDecision.mayBeOneStatement(media)).isFalse();
        assertThat(ReservationBatchDecision.onOneMeterRow(media, FREE, NOW)).isNull();
        assertThat(ReservationBatchDecision.mayBeOneStatement(List.of())).isFalse();
        assertThat(ReservationBatchDecision.onOneMeterRow(List.of(), FREE, NOW)).isNull();
        assertThat(ReservationBatchDecision.mayBeOneStatement(List.of(publication("rsv_1", null))))
                .isTrue();
    }

    @Test
    void theLimitIsThePlansAtTheFirstItemsTime() {
        // A subscription on starter (300) that becomes free (20) on the 25th, in the same anniversary period.
        SubscriptionState downgrading = new SubscriptionState(
                Mode.LIVE,
                new PlanTerms(Plan.STARTER, PlanSource.SUBSCRIPTION, MARCH.start()),
                null,
                Plan.FREE,
                PlanSource.SUBSCRIPTION,
                Instant.parse("2026-03-25T00:00:00Z"));
        Instant after = Instant.parse("2026-03-26T00:00:00Z");
        assertThat(ReservationBatchDecision.onOneMeterRow(
                                List.of(publication("rsv_1", NOW), publication("rsv_2", after)), downgrading, NOW)
                        .limit())
                .isEqualTo(300L);
        assertThat(ReservationBatchDecision.onOneMeterRow(
                                List.of(publication("rsv_2", after), publication("rsv_1", NOW)), downgrading, NOW)
                        .limit())
                .isEqualTo(20L);
    }

    @Test
    void aRowHoldsADemandUpToItsLimitAndNotOneBeyond() {
        Demand three = new Demand(new MeterPeriod(Meter.PUBLICATIONS, MARCH), NOW, 20L, 3);
        assertThat(three.fitsIn(10, 7)).isTrue();
        assertThat(three.fitsIn(10, 8)).isFalse();
        assertThat(three.fitsIn(18, 0)).isFalse();
        Demand unlimited = new Demand(new MeterPeriod(Meter.PUBLICATIONS, MARCH), NOW, null, 3);
        assertThat(unlimited.fitsIn(Long.MAX_VALUE / 2, 0)).isTrue();
    }

    @Test
    void theFirstDemandInLockOrderThatItsRowCannotHoldIsRefused() {
        List<Demand> demands = ReservationBatchDecision.demands(
                List.of(publication("rsv_1", IN_APRIL), publication("rsv_2", NOW)), FREE, NOW);
        MeterPeriod march = new MeterPeriod(Meter.PUBLICATIONS, MARCH);
        MeterPeriod april = new MeterPeriod(Meter.PUBLICATIONS, APRIL);
        assertThat(ReservationBatchDecision.refused(demands, Map.of(march, row(19, 0), april, row(0, 19))))
                .isNull();
        assertThat(ReservationBatchDecision.refused(demands, Map.of(march, row(19, 0), april, row(0, 20))))
                .isEqualTo(demands.get(1));
        assertThat(ReservationBatchDecision.refused(demands, Map.of(march, row(19, 1), april, row(0, 20))))
                .isEqualTo(demands.get(0));
    }
}
