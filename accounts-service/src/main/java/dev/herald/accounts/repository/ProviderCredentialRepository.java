package dev.herald.accounts.repository;

import dev.herald.accounts.model.ProviderCredentialEntity;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.hibernate.LockMode;
import org.hibernate.reactive.mutiny.Mutiny;

/** Live accounts' provider grants, stored only as ciphertext (see GrantEncryption). */
@ApplicationScoped
public class ProviderCredentialRepository {

    public Uni<Void> store(String accountId, byte[] ciphertext, Instant now) {
        return Panache.getSession()
                .flatMap(session -> session.createNativeQuery("""
                        insert into provider_credentials (account_id, ciphertext, updated_at) values (?1, ?2, ?3)
                        on conflict (account_id) do update set ciphertext = excluded.ciphertext, updated_at = excluded.updated_at""")
                        .setParameter(1, accountId)
                        .setParameter(2, ciphertext)
                        .setParameter(3, now)
                        .executeUpdate())
                .replaceWithVoid();
    }

    /** The sealed grant, or null when the account has none (test accounts, disconnected accounts). */
    public Uni<byte[]> find(String accountId) {
        return Panache.getSession()
                .flatMap(session ->
                        session.find(ProviderCredentialEntity.class, accountId).map(row -> ciphertext(session, row)));
    }

    /** The sealed grant, its row locked until the transaction ends (one refresh at a time per account); null when none. */
    public Uni<byte[]> findForUpdate(String accountId) {
        return Panache.getSession()
                .flatMap(session -> session.find(ProviderCredentialEntity.class, accountId, LockMode.PESSIMISTIC_WRITE)
                        .map(row -> ciphertext(session, row)));
    }

    /** The sealed grants of several accounts, by account id; accounts without one are absent. */
    public Uni<Map<String, byte[]>> findAll(List<String> accountIds) {
        return Panache.getSession()
                .flatMap(session -> session.createSelectionQuery(
                                "from ProviderCredentialEntity where accountId in :ids", ProviderCredentialEntity.class)
                        .setParameter("ids", accountIds)
                        .getResultList()
                        .map(rows -> {
                            Map<String, byte[]> grants = new HashMap<>();
                            for (ProviderCredentialEntity row : rows) {
                                grants.put(row.accountId, ciphertext(session, row));
                            }
                            return grants;
                        }));
    }

    /**
     * The row's ciphertext, the row itself let go: grants are written with a native upsert, so a row kept in the
     * session would answer a later read in the same session with the grant it replaced.
     */
    private static byte[] ciphertext(Mutiny.Session session, ProviderCredentialEntity row) {
        if (row == null) {
            return null;
        }
        session.detach(row);
        return row.ciphertext;
    }

    public Uni<Void> delete(String accountId) {
        return Panache.getSession()
                .flatMap(session -> session.createNativeQuery("delete from provider_credentials where account_id = ?1")
                        .setParameter(1, accountId)
                        .executeUpdate())
                .replaceWithVoid();
    }
}
