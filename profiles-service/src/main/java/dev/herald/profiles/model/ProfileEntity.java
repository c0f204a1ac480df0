package dev.herald.profiles.model;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

@Entity
@Table(name = "profiles")
public class ProfileEntity {
    @Id
    public String id;

    @Column(name = "workspace_id", nullable = false)
    public String workspaceId;

    /** {@code test} or {@code live}. */
    @Column(nullable = false)
    public String mode;

    @Column(nullable = false)
    public String name;

    @Column(name = "external_id")
    public String externalId;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;
}
