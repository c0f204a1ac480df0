package dev.herald.accounts.repository;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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

    /** The sealed grant, its row locked until the transaction ends (one refresh at a time per account); null when none. */
    @SuppressWarnings("unchecked")
    public Uni<byte[]> findForUpdate(String accountId) {
        return Panache.getSession().flatMap(session -> session.createNativeQuery(
                        "select ciphertext from provider_credentials where account_id = ?1 for update", byte[].class)
                .setParameter(1, accountId).getResultList())
                .map(rows -> ((List<byte[]>) (List<?>) rows).isEmpty() ? null : ((List<byte[]>) (List<?>) rows).get(0));
    }

    /** The sealed grants of several accounts, by account id; accounts without one are absent. */
    @SuppressWarnings("unchecked")
    public Uni<Map<String, byte[]>> findAll(List<String> accountIds) {
        return Panache.getSession().flatMap(session -> session.createNativeQuery(
                        "select account_id, ciphertext from provider_credentials where account_id in (?1)", Object[].class)
                .setParameter(1, accountIds).getResultList())
                .map(rows -> {
                    Map<String, byte[]> grants = new HashMap<>();
                    for (Object[] row : (List<Object[]>) (List<?>) rows) {
                        grants.put((String) row[0], (byte[]) row[1]);
                    }
                    return grants;
                });
    }

    public Uni<Void> delete(String accountId) {
        return Panache.getSession().flatMap(session -> session.createNativeQuery(
                        "delete from provider_credentials where account_id = ?1")
                .setParameter(1, accountId).executeUpdate()).replaceWithVoid();
    }
}
