package dev.herald.accounts.model;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/** A hosted connection link; see V10__connect_sessions.sql for what is (and is not) stored. */
@Entity
@Table(name = "connect_sessions")
public class ConnectSessionEntity {
    @Id
    public String id;

    @Column(name = "workspace_id", nullable = false)
    public String workspaceId;

    @Column(nullable = false)
    public String mode;

    /** The profile new accounts are assigned to; null for a reconnect session of an unassigned account. */
    @Column(name = "profile_id")
    public String profileId;

    /** The one account a reconnect session re-authorizes (the same id); null for an ordinary session. */
    @Column(name = "account_id")
    public String accountId;

    /** Offered platforms' wire names, comma-separated. */
    @Column(nullable = false)
    public String platforms;

    @Column(name = "redirect_url")
    public String redirectUrl;

    @Column(name = "embed_origin")
    public String embedOrigin;

    /** The page's name for the customer instead of its branding's (V19); null: the branding's. */
    @Column(name = "display_name")
    public String displayName;

    /** The page's language (a normalized BCP 47 tag, see {@code HostedPageLocales}); null: the browser's. */
    @Column
    public String locale;

    /** SHA-256 (hex) of the capability token in the session's URL. */
    @Column(name = "token_hash", nullable = false)
    public String tokenHash;

    /** {@code open}, {@code completed} or {@code revoked}; {@code expired} is derived from {@link #expiresAt}. */
    @Column(nullable = false)
    public String status;

    /** Connected account ids, comma-separated, in connection order. */
    @Column(name = "account_ids", nullable = false)
    public String accountIds;

    @Column(name = "expires_at", nullable = false)
    public Instant expiresAt;

    @Column(name = "completed_at")
    public Instant completedAt;

    @Column(name = "revoked_at")
    public Instant revokedAt;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;
}
