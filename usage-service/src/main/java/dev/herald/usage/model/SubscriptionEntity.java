package dev.herald.usage.model;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import java.io.Serializable;
import java.time.Instant;
import java.util.Objects;

/** The plan of one workspace and mode, and a downgrade waiting for the end of the period. */
@Entity
@Table(name = "subscriptions")
@IdClass(SubscriptionEntity.Key.class)
public class SubscriptionEntity {
    @Id
    @Column(name = "workspace_id")
    public String workspaceId;

    /** {@code test} or {@code live}. */
    @Id
    public String mode;

    @Column(nullable = false)
    public String plan;

    @Column(name = "plan_source", nullable = false)
    public String planSource;

    @Column(name = "started_at", nullable = false)
    public Instant startedAt;

    @Column(name = "grace_ends_at")
    public Instant graceEndsAt;

    @Column(name = "pending_plan")
    public String pendingPlan;

    @Column(name = "pending_plan_source")
    public String pendingPlanSource;

    @Column(name = "pending_effective_at")
    public Instant pendingEffectiveAt;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;

    /** The primary key, as JPA's {@code @IdClass} wants it (a mutable class with a no-argument constructor). */
    public static class Key implements Serializable {
        public String workspaceId;
        public String mode;

        public Key() {}

        public Key(String workspaceId, String mode) {
            this.workspaceId = workspaceId;
            this.mode = mode;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Key key
                    && Objects.equals(workspaceId, key.workspaceId)
                    && Objects.equals(mode, key.mode);
        }

        @Override
        public int hashCode() {
            return Objects.hash(workspaceId, mode);
        }
    }
}
