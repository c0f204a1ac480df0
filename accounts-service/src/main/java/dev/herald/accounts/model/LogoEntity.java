package dev.herald.accounts.model;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/** A branding's logo as fetched, named by its SHA-256 (V19__connect_branding.sql). */
@Entity
@Table(name = "connect_logos")
public class LogoEntity {
    @Id
    public String sha256;

    /** {@code image/png}, {@code image/jpeg} or {@code image/webp}, as its bytes say (never as its host said). */
    @Column(name = "content_type", nullable = false)
    public String contentType;

    @Column(nullable = false)
    public byte[] bytes;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;
}
