package dev.herald.usage.service;

import dev.herald.common.auth.Mode;
import dev.herald.common.wire.UsagePeriod;
import dev.herald.usage.catalog.Meter;
import dev.herald.usage.model.UsageMeterEntity;
import dev.herald.usage.repository.UsageMeterRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;

/**
 * Locks several meter rows of one workspace and mode in one fixed order: by meter name, then by period start.
 * Every transaction that holds more than one meter row takes them through here (a single-row lock is trivially
 * in order), and only after any reservation rows it locks, so two transactions never wait on each other.
 */
@ApplicationScoped
public class MeterLocks {
    /** One meter in one period: the key of a meter row within a workspace and mode. */
    public record MeterPeriod(Meter meter, UsagePeriod period) {
        static final Comparator<MeterPeriod> LOCK_ORDER = Comparator.comparing(
                        (MeterPeriod key) -> key.meter().wireName())
                .thenComparing(key -> key.period().start());
    }

    private final UsageMeterRepository meters;

    public MeterLocks(UsageMeterRepository meters) {
        this.meters = meters;
    }

    /** The rows, created at zero where missing, locked for the rest of the transaction; keyed as asked. */
    public Uni<Map<MeterPeriod, UsageMeterEntity>> lockInOrder(
            String workspaceId, Mode mode, Collection<MeterPeriod> keys, Instant now) {
        TreeSet<MeterPeriod> ordered = new TreeSet<>(MeterPeriod.LOCK_ORDER);
        ordered.addAll(keys);
        Map<MeterPeriod, UsageMeterEntity> rows = new LinkedHashMap<>();
        Uni<Map<MeterPeriod, UsageMeterEntity>> locking = Uni.createFrom().item(rows);
        for (MeterPeriod key : ordered) {
            locking = locking.flatMap(locked -> meters.lockOrCreate(workspaceId, mode, key.meter(), key.period(), now)
                    .map(row -> {
                        locked.put(key, row);
                        return locked;
                    }));
        }
        return locking;
    }
}
