package dev.herald.accounts.repository;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;

/** Live accounts' provider grants, stored only as ciphertext (see GrantEncryption). */
@ApplicationScoped
public class ProviderCredentialRepository {

    public Uni<Void> store(String accountId, byte[] ciphertext, Instant now) {
        return Panache.getSession().flatMap(session -> session.createNativeQuery("""
                        insert into provider_credentials (account_id, ciphertext, updated_at) values (?1, ?2, ?3)
                        on conflict (account_id) do update set ciphertext = excluded.ciphertext, updated_at = excluded.updated_at""")
                .setParameter(1, accountId).setParameter(2, ciphertext).setParameter(3, now)
                .executeUpdate()).replaceWithVoid();
    }

    /** The sealed grant, or null when the account has none (test accounts, disconnected accounts). */
    @SuppressWarnings("unchecked")
    public Uni<byte[]> find(String accountId) {
        return Panache.getSession().flatMap(session -> session.createNativeQuery(
                        "select ciphertext from provider_credentials where account_id = ?1", byte[].class)
                .setParameter(1, accountId).getResultList())
                .map(rows -> ((List<byte[]>) (List<?>) rows).isEmpty() ? null : ((List<byte[]>) (List<?>) rows).get(0));
    }

    public Uni<Void> delete(String accountId) {
        return Panache.getSession().flatMap(session -> session.createNativeQuery(
                        "delete from provider_credentials where account_id = ?1")
                .setParameter(1, accountId).executeUpdate()).replaceWithVoid();
    }
}
