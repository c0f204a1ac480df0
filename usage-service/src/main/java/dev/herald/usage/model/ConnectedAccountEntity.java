package dev.herald.usage.model;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import java.io.Serializable;
import java.time.Instant;
import java.util.Objects;

/**
 * An account holding one of its workspace and mode's connected-account slots. Mapped so its counts are HQL, whose
 * plans Hibernate keeps (a native select stored a new plan on every call: Hibernate 7.1 keys it by a result mapping
 * built anew); rows are written with native statements in {@code ConnectedAccountRepository}.
 */
@Entity
@Table(name = "connected_accounts")
@IdClass(ConnectedAccountEntity.Key.class)
public class ConnectedAccountEntity {
    @Id
    @Column(name = "workspace_id")
    public String workspaceId;

    @Id
    public String mode;

    @Id
    @Column(name = "account_id")
    public String accountId;

    @Column(name = "connected_at", nullable = false)
    public Instant connectedAt;

    /** The primary key, as JPA's {@code @IdClass} wants it (a mutable class with a no-argument constructor). */
    public static class Key implements Serializable {
        public String workspaceId;
        public String mode;
        public String accountId;

        public Key() {}

        @Override
        public boolean equals(Object other) {
            return other instanceof Key key
                    && Objects.equals(workspaceId, key.workspaceId)
                    && Objects.equals(mode, key.mode)
                    && Objects.equals(accountId, key.accountId);
        }

        @Override
        public int hashCode() {
            return Objects.hash(workspaceId, mode, accountId);
        }
    }
}
