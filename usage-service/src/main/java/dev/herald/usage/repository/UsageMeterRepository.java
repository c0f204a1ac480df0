package dev.herald.usage.repository;

import dev.herald.common.auth.Mode;
import dev.herald.common.persistence.UniqueRow;
import dev.herald.common.wire.UsagePeriod;
import dev.herald.usage.catalog.Meter;
import dev.herald.usage.model.UsageMeterEntity;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.PanacheQuery;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** Meter rows per workspace, mode, meter and period. */
@ApplicationScoped
public class UsageMeterRepository implements PanacheRepositoryBase<UsageMeterEntity, UsageMeterEntity.Key> {

    /**
     * The meter's row for this period, created at zero if missing, locked for the rest of the transaction.
     * Whoever holds the lock sees the latest committed {@code used} and {@code reserved}; others wait.
     * Call it before any other read of the same row in the session (an entity already in the session
     * would not be refreshed).
     */
    public Uni<UsageMeterEntity> lockOrCreate(
            String workspaceId, Mode mode, Meter meter, UsagePeriod period, Instant now) {
        // The row exists for all but a period's first charge, so it is locked first and only created when missing.
        return row(workspaceId, mode, meter, period.start())
                .withLock(LockModeType.PESSIMISTIC_WRITE)
                .list()
                .map(UniqueRow::of)
                .flatMap(existing -> existing != null
                        ? Uni.createFrom().item(existing)
                        : Panache.getSession()
                                .flatMap(session -> session.createNativeQuery("""
                                        insert into usage_meters (workspace_id, mode, meter, period_start, period_end, used, reserved, updated_at)
                                        values (?1, ?2, ?3, ?4, ?5, 0, 0, ?6) on conflict do nothing""")
                                        .setParameter(1, workspaceId)
                                        .setParameter(2, mode.wireName())
                                        .setParameter(3, meter.wireName())
                                        .setParameter(4, period.start())
                                        .setParameter(5, period.end())
                                        .setParameter(6, now)
                                        .executeUpdate())
                                .flatMap(inserted -> row(workspaceId, mode, meter, period.start())
                                        .withLock(LockModeType.PESSIMISTIC_WRITE)
                                        .singleResult()));
    }

    /** The meter's row for this period without a lock (a read that changes nothing); null when none exists yet. */
    public Uni<UsageMeterEntity> find(String workspaceId, Mode mode, Meter meter, Instant periodStart) {
        return row(workspaceId, mode, meter, periodStart).list().map(UniqueRow::of);
    }

    private PanacheQuery<UsageMeterEntity> row(String workspaceId, Mode mode, Meter meter, Instant periodStart) {
        return find(
                "workspaceId = ?1 and mode = ?2 and meter = ?3 and periodStart = ?4",
                workspaceId,
                mode.wireName(),
                meter.wireName(),
                periodStart);
    }

    /** Every meter row of the period that starts at {@code periodStart}; meters without a row are absent. */
    public Uni<Map<Meter, UsageMeterEntity>> inPeriod(String workspaceId, Mode mode, Instant periodStart) {
        return find("workspaceId = ?1 and mode = ?2 and periodStart = ?3", workspaceId, mode.wireName(), periodStart)
                .list()
                .map(UsageMeterRepository::byMeter);
    }

    private static Map<Meter, UsageMeterEntity> byMeter(List<UsageMeterEntity> rows) {
        Map<Meter, UsageMeterEntity> meters = new EnumMap<>(Meter.class);
        for (UsageMeterEntity row : rows) {
            Meter.fromWire(row.meter).ifPresent(meter -> meters.put(meter, row));
        }
        return meters;
    }
}
