package dev.herald.accounts.model;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/**
 * A live account's provider grant, sealed (see GrantEncryption). Read through this mapping so that every lookup uses
 * one loader Hibernate built once (a native select stored a new query plan on each call: Hibernate 7.1 keys it by a
 * result mapping built anew); written with an upsert in {@code ProviderCredentialRepository}.
 */
@Entity
@Table(name = "provider_credentials")
public class ProviderCredentialEntity {
    @Id
    @Column(name = "account_id")
    public String accountId;

    @Column(nullable = false)
    public byte[] ciphertext;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;
}
