package dev.herald.usage.model;

import dev.herald.common.events.UsageEvent;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import java.io.Serializable;
import java.time.Instant;
import java.util.Objects;

/** One meter of one workspace and mode in one period: units used, and units reserved by accepted work. */
@Entity
@Table(name = "usage_meters")
@IdClass(UsageMeterEntity.Key.class)
public class UsageMeterEntity {
    @Id
    @Column(name = "workspace_id")
    public String workspaceId;

    @Id
    public String mode;

    @Id
    public String meter;

    @Id
    @Column(name = "period_start")
    public Instant periodStart;

    @Column(name = "period_end", nullable = false)
    public Instant periodEnd;

    @Column(nullable = false)
    public long used;

    @Column(nullable = false)
    public long reserved;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;

    /** This row as a {@code usage.reserved} event tells it, with the allowance it was checked against. */
    public UsageEvent.MeterState stateWith(Long limit) {
        return new UsageEvent.MeterState(used, reserved, limit);
    }

    /** The primary key, as JPA's {@code @IdClass} wants it (a mutable class with a no-argument constructor). */
    public static class Key implements Serializable {
        public String workspaceId;
        public String mode;
        public String meter;
        public Instant periodStart;

        public Key() {}

        public Key(String workspaceId, String mode, String meter, Instant periodStart) {
            this.workspaceId = workspaceId;
            this.mode = mode;
            this.meter = meter;
            this.periodStart = periodStart;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Key key
                    && Objects.equals(workspaceId, key.workspaceId)
                    && Objects.equals(mode, key.mode)
                    && Objects.equals(meter, key.meter)
                    && Objects.equals(periodStart, key.periodStart);
        }

        @Override
        public int hashCode() {
            return Objects.hash(workspaceId, mode, meter, periodStart);
        }
    }
}
