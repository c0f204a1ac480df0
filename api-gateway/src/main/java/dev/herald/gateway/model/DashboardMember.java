package dev.herald.gateway.model;

import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/** A person who may sign in to a workspace's dashboard, named by email, by OIDC subject, or both. */
@Entity
@Table(name = "dashboard_members")
public class DashboardMember {
    @Id
    public String id;

    @Column(name = "workspace_id", nullable = false)
    public String workspaceId;

    /** Lower case. */
    public String email;

    public String subject;

    @Convert(converter = MemberRoleConverter.class)
    @Column(nullable = false)
    public MemberRole role;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;
}
