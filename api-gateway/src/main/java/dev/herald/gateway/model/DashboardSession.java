package dev.herald.gateway.model;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/** A signed-in browser: the identity it proved, until when. The cookie's token is kept only as its SHA-256. */
@Entity
@Table(name = "dashboard_sessions")
public class DashboardSession {
    @Id
    @Column(name = "token_hash")
    public String tokenHash;

    public String subject;

    public String email;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    @Column(name = "expires_at", nullable = false)
    public Instant expiresAt;
}
