package dev.herald.accounts.model;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import java.io.Serializable;
import java.time.Instant;
import java.util.Objects;

/**
 * A workspace's branding of the hosted connect page in one mode (V19__connect_branding.sql). {@link #logoUrl} and
 * {@link #logoSha256} are both set or both null; the image itself is a {@link LogoEntity}.
 */
@Entity
@Table(name = "connect_brandings")
@IdClass(BrandingEntity.Key.class)
public class BrandingEntity {
    /** The primary key: one branding per workspace and mode. */
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

    @Id
    @Column(name = "workspace_id")
    public String workspaceId;

    @Id
    public String mode;

    @Column(name = "display_name")
    public String displayName;

    @Column(name = "accent_color")
    public String accentColor;

    @Column(name = "support_url")
    public String supportUrl;

    @Column(name = "privacy_url")
    public String privacyUrl;

    /** The customer's URL the logo was fetched from. */
    @Column(name = "logo_url")
    public String logoUrl;

    /** SHA-256 (hex) of the fetched image: its {@link LogoEntity}, and the name in the page's logo URL. */
    @Column(name = "logo_sha256")
    public String logoSha256;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;
}
