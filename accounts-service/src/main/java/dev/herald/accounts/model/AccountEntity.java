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
