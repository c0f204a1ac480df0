package dev.herald.accounts.repository;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;

/**
 * The queue of provider revocations still to be done, each holding only the encrypted grant. Rows join the queue in
 * the Hibernate transaction that disconnects the account; the retry job works the queue through
 * {@link ProviderRevocationStatements}.
 */
@ApplicationScoped
public class ProviderRevocationRepository {
    public Uni<Void> enqueue(
            String accountId,
            String workspaceId,
            String mode,
            String platform,
            byte[] ciphertext,
            Instant firstAttemptAt,
            Instant expiresAt,
            Instant now) {
        return Panache.getSession()
                .flatMap(session -> session.createNativeQuery("""
                        insert into provider_revocations
                            (account_id, workspace_id, mode, platform, ciphertext, next_attempt_at, expires_at, created_at)
                        values (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)""")
                        .setParameter(1, accountId)
                        .setParameter(2, workspaceId)
                        .setParameter(3, mode)
                        .setParameter(4, platform)
                        .setParameter(5, ciphertext)
                        .setParameter(6, firstAttemptAt)
                        .setParameter(7, expiresAt)
                        .setParameter(8, now)
                        .executeUpdate())
                .replaceWithVoid();
    }

    public Uni<Boolean> pendingFor(String accountId) {
        return Panache.getSession()
                .flatMap(session -> session.createSelectionQuery(
                                "select count(*) from ProviderRevocationEntity where accountId = :accountId",
                                Long.class)
                        .setParameter("accountId", accountId)
                        .getSingleResult())
                .map(count -> count > 0);
    }
}
