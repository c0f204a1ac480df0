package dev.herald.gateway.model;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/** A one-time sign-in link for a member; the token in the URL is kept only as its SHA-256. */
@Entity
@Table(name = "dashboard_sign_in_links")
public class SignInLink {
    @Id
    @Column(name = "token_hash")
    public String tokenHash;

    @Column(name = "member_id", nullable = false)
    public String memberId;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    @Column(name = "expires_at", nullable = false)
    public Instant expiresAt;

    @Column(name = "used_at")
    public Instant usedAt;
}
