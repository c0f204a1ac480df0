package dev.herald.gateway.model;

import dev.herald.common.auth.Mode;
import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

/** An API key: only its SHA-256 and last four characters are kept. */
@Entity
@Table(name = "api_keys")
public class ApiKey {
    @Id
    public String id;

    @Column(name = "workspace_id", nullable = false)
    public String workspaceId;

    @Convert(converter = ModeConverter.class)
    @Column(nullable = false)
    public Mode mode;

    @Column(name = "secret_hash", nullable = false)
    public String secretHash;

    @Column(name = "secret_last4", nullable = false)
    public String secretLast4;

    /** Space-separated scope names. */
    @Column(nullable = false)
    public String scopes;

    public String name;

    @Column(nullable = false)
    public boolean demo;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    @Column(name = "revoked_at")
    public Instant revokedAt;

    public Set<String> scopeSet() {
        return scopes.isBlank() ? Set.of() : Arrays.stream(scopes.split(" ")).collect(Collectors.toUnmodifiableSet());
    }

    public boolean isActive() {
        return revokedAt == null;
    }
}
