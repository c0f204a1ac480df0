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

/** An OAuth client of one workspace and mode; tokens it obtains can carry at most its scopes. */
@Entity
@Table(name = "oauth_clients")
public class OAuthClient {
    @Id
    public String id;

    @Column(name = "workspace_id", nullable = false)
    public String workspaceId;

    @Convert(converter = ModeConverter.class)
    @Column(nullable = false)
    public Mode mode;

    @Column(name = "secret_hash", nullable = false)
    public String secretHash;

    /** Space-separated scope names. */
    @Column(nullable = false)
    public String scopes;

    public String name;

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
