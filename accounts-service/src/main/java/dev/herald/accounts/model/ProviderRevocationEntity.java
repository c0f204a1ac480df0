package dev.herald.accounts.model;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/**
 * A revocation of a replaced or disconnected grant that the provider has not confirmed yet (see
 * V4__provider_revocations.sql). The retry job works the queue on the Vert.x pool; this mapping serves the one read
 * made inside a Hibernate transaction as HQL, whose plan Hibernate keeps (a native select's would be stored anew on
 * every call).
 */
@Entity
@Table(name = "provider_revocations")
public class ProviderRevocationEntity {
    @Id
    public Long id;

    @Column(name = "account_id", nullable = false)
    public String accountId;

    @Column(name = "workspace_id", nullable = false)
    public String workspaceId;

    @Column(nullable = false)
    public String mode;

    @Column(nullable = false)
    public String platform;

    @Column(nullable = false)
    public byte[] ciphertext;

    @Column(nullable = false)
    public int attempts;

    @Column(name = "next_attempt_at", nullable = false)
    public Instant nextAttemptAt;

    @Column(name = "expires_at", nullable = false)
    public Instant expiresAt;

    @Column(name = "last_error")
    public String lastError;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;
}
