package dev.herald.usage.service;

import dev.herald.usage.catalog.Meter;
import dev.herald.usage.model.UsageMeterEntity;
import dev.herald.usage.service.MeterLocks.MeterPeriod;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a batch of new reservations asks of each meter row, and whether the rows' counts hold it: each item charges
 * its meter in the period containing its time (default now), the items of one meter and period add up, and a period
 * admits them while {@code used + reserved + units <= limit}, the limit being the plan's at the first item's time. No
 * I/O: {@link ReservationBatchService} works out the same demands on both of its paths. The one statement
 * ({@code ReservationStatements.reserveOnOneMeter}) takes the single demand's units and limit from here and applies
 * the same comparison to the row it locks, in SQL, since the row's counts are known only there; the transaction
 * applies {@link #refused} to the rows it locked.
 */
final class ReservationBatchDecision {

    /** The new items of one meter and period, what they add up to, and the limit at the first item's time. */
    record Demand(MeterPeriod key, Instant at, Long limit, long units) {
        Demand plus(long more) {
            return new Demand(key, at, limit, units + more);
        }

        /** Whether a meter row with these counts holds the demand: no limit, or the sum within it. */
        boolean fitsIn(long used, long reserved) {
            return limit == null || used + reserved + units <= limit;
        }
    }

    private ReservationBatchDecision() {}

    /**
     * What the new items ask of each meter and period, in {@link MeterLocks}' order (the order refusals are looked
     * for in, so a batch over two limits is always refused on the same one).
     */
    static List<Demand> demands(List<ReservationRequest> fresh, SubscriptionState state, Instant now) {
        Map<MeterPeriod, Demand> demands = new LinkedHashMap<>();
        for (ReservationRequest item : fresh) {
            MeterPeriod key = keyOf(item, state, now);
            Instant at = at(item, now);
            demands.merge(
                    key,
                    new Demand(key, at, item.meter().limitIn(state.allowancesAt(at)), item.units()),
                    (sum, next) -> sum.plus(next.units()));
        }
        return demands.values().stream()
                .sorted(Comparator.comparing(Demand::key, MeterPeriod.LOCK_ORDER))
                .toList();
    }

    /** Whether the batch may be one statement, known before anything is read: some items, none of them media. */
    static boolean mayBeOneStatement(List<ReservationRequest> items) {
        return !items.isEmpty() && items.stream().noneMatch(item -> item.meter() == Meter.MEDIA_BYTES);
    }

    /** The batch's one demand when every item charges the same meter row and none is media; else null. */
    static Demand onOneMeterRow(List<ReservationRequest> items, SubscriptionState state, Instant now) {
        if (!mayBeOneStatement(items)) {
            return null;
        }
        List<Demand> demands = demands(items, state, now);
        return demands.size() == 1 ? demands.get(0) : null;
    }

    /** The first demand, in lock order, that its locked row cannot hold; null when every row holds its demand. */
    static Demand refused(List<Demand> demands, Map<MeterPeriod, UsageMeterEntity> rows) {
        for (Demand demand : demands) {
            UsageMeterEntity row = rows.get(demand.key());
            if (!demand.fitsIn(row.used, row.reserved)) {
                return demand;
            }
        }
        return null;
    }

    /** The meter row an item charges: its meter in the period containing its time. */
    static MeterPeriod keyOf(ReservationRequest item, SubscriptionState state, Instant now) {
        return new MeterPeriod(item.meter(), state.periodAt(at(item, now)));
    }

    static Instant at(ReservationRequest item, Instant now) {
        return item.at() == null ? now : item.at();
    }
}
