package dev.herald.accounts.model;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

@Entity
@Table(name = "accounts")
public class AccountEntity {
    @Id
    public String id;

    @Column(name = "workspace_id", nullable = false)
    public String workspaceId;

    /** {@code test} or {@code live}. */
    @Column(nullable = false)
    public String mode;

    /** The platform's wire name. */
    @Column(nullable = false)
    public String platform;

    /** The provider's id for this identity (simulated for test accounts); stable across reconnections. */
    @Column(name = "external_id", nullable = false)
    public String externalId;

    @Column(name = "profile_id")
    public String profileId;

    @Column(nullable = false)
    public String name;

    @Column(nullable = false)
    public String username;

    /** {@code connected} or {@code disconnected}. */
    @Column(nullable = false)
    public String status;

    /**
     * {@code healthy}, {@code reauth_required} or {@code disconnected} (with {@link #status}); the API's {@code
     * expiring} is derived from {@link #tokenExpiresAt} (see {@code AccountViews.health}).
     */
    @Column(name = "health_status", nullable = false)
    public String healthStatus;

    /** The platform's answer that made the account reauth_required; null otherwise. */
    @Column(name = "health_reason")
    public String healthReason;

    /** When Herald's access ends unless renewed; null when the platform gives no end (or for sandbox accounts). */
    @Column(name = "token_expires_at")
    public Instant tokenExpiresAt;

    @Column(name = "health_checked_at")
    public Instant healthCheckedAt;

    /** When the health job checks the account next; null: never. */
    @Column(name = "next_check_at")
    public Instant nextCheckAt;

    /** Temporary check failures since the last definitive answer (the backoff's exponent). */
    @Column(name = "check_failures", nullable = false)
    public int checkFailures;

    @Column(name = "authorization_revision", nullable = false)
    public long authorizationRevision;

    /** The analytics-consent receipt of the current authorization revision (YouTube); null until accepted. */
    @Column(name = "consent_policy_version")
    public String consentPolicyVersion;

    @Column(name = "consent_accepted_at")
    public Instant consentAcceptedAt;

    /** The connect session of the latest authorization; null for sandbox accounts made through the API. */
    @Column(name = "connect_session_id")
    public String connectSessionId;

    @Column(name = "connected_at", nullable = false)
    public Instant connectedAt;

    @Column(name = "disconnected_at")
    public Instant disconnectedAt;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;
}
