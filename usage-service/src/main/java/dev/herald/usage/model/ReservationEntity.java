package dev.herald.usage.model;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import java.io.Serializable;
import java.time.Instant;
import java.util.Objects;

/** Units of a meter held for accepted work, under the caller's own id (unique per workspace and mode). */
@Entity
@Table(name = "reservations")
@IdClass(ReservationEntity.Key.class)
public class ReservationEntity {
    @Id
    @Column(name = "workspace_id")
    public String workspaceId;

    @Id
    public String mode;

    @Id
    public String id;

    @Column(nullable = false)
    public String meter;

    @Column(nullable = false)
    public long units;

    /** {@code reserved}, {@code consumed} or {@code released}. */
    @Column(nullable = false)
    public String status;

    @Column(name = "period_start", nullable = false)
    public Instant periodStart;

    @Column(name = "period_end", nullable = false)
    public Instant periodEnd;

    @Column(name = "consumed_period_start")
    public Instant consumedPeriodStart;

    @Column(name = "consumed_period_end")
    public Instant consumedPeriodEnd;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;

    /** The primary key, as JPA's {@code @IdClass} wants it (a mutable class with a no-argument constructor). */
    public static class Key implements Serializable {
        public String workspaceId;
        public String mode;
        public String id;

        public Key() {}

        public Key(String workspaceId, String mode, String id) {
            this.workspaceId = workspaceId;
            this.mode = mode;
            this.id = id;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Key key
                    && Objects.equals(workspaceId, key.workspaceId)
                    && Objects.equals(mode, key.mode)
                    && Objects.equals(id, key.id);
        }

        @Override
        public int hashCode() {
            return Objects.hash(workspaceId, mode, id);
        }
    }
}
