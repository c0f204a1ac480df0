package dev.herald.accounts.repository;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;

/** The queue of provider revocations still to be done, each holding only the encrypted grant. */
@ApplicationScoped
public class ProviderRevocationRepository {

    /** One queued revocation, as the retry job sees it. */
    public record PendingRevocation(long id, String accountId, String workspaceId, String mode, String platform,
                                    byte[] ciphertext, int attempts, Instant expiresAt) {
    }

    public Uni<Void> enqueue(String accountId, String workspaceId, String mode, String platform, byte[] ciphertext,
                             Instant firstAttemptAt, Instant expiresAt, Instant now) {
        return Panache.getSession().flatMap(session -> session.createNativeQuery("""
                        insert into provider_revocations
                            (account_id, workspace_id, mode, platform, ciphertext, next_attempt_at, expires_at, created_at)
                        values (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)""")
                .setParameter(1, accountId).setParameter(2, workspaceId).setParameter(3, mode).setParameter(4, platform)
                .setParameter(5, ciphertext).setParameter(6, firstAttemptAt).setParameter(7, expiresAt).setParameter(8, now)
                .executeUpdate()).replaceWithVoid();
    }

    public Uni<Boolean> pendingFor(String accountId) {
        return Panache.getSession().flatMap(session -> session.createNativeQuery(
                        "select count(*) from provider_revocations where account_id = ?1", Long.class)
                .setParameter(1, accountId).getSingleResult()).map(count -> count > 0);
    }

    /** Due revocations, claimed for this transaction ({@code SKIP LOCKED}: replicas never take the same row). */
    @SuppressWarnings("unchecked")
    public Uni<List<PendingRevocation>> claimDue(Instant now, int max) {
        return Panache.getSession().flatMap(session -> session.createNativeQuery("""
                        select id, account_id, workspace_id, mode, platform, ciphertext, attempts, expires_at
                        from provider_revocations where next_attempt_at <= ?1
                        order by next_attempt_at limit ?2 for update skip locked""", Object[].class)
                .setParameter(1, now).setParameter(2, max).getResultList())
                .map(rows -> ((List<Object[]>) (List<?>) rows).stream().map(row -> new PendingRevocation(
                        ((Number) row[0]).longValue(), (String) row[1], (String) row[2], (String) row[3], (String) row[4],
                        (byte[]) row[5], ((Number) row[6]).intValue(), toInstant(row[7]))).toList());
    }

    public Uni<Void> reschedule(long id, int attempts, Instant nextAttemptAt, String lastError) {
        return Panache.getSession().flatMap(session -> session.createNativeQuery(
                        "update provider_revocations set attempts = ?2, next_attempt_at = ?3, last_error = ?4 where id = ?1")
                .setParameter(1, id).setParameter(2, attempts).setParameter(3, nextAttemptAt).setParameter(4, lastError)
                .executeUpdate()).replaceWithVoid();
    }

    /** Removes the row and with it the encrypted grant (revoked, or given up on). */
    public Uni<Void> delete(long id) {
        return Panache.getSession().flatMap(session -> session.createNativeQuery(
                        "delete from provider_revocations where id = ?1")
                .setParameter(1, id).executeUpdate()).replaceWithVoid();
    }

    private static Instant toInstant(Object value) {
        if (value instanceof Instant instant) {
            return instant;
        }
        if (value instanceof java.time.OffsetDateTime offset) {
            return offset.toInstant();
        }
        if (value instanceof java.sql.Timestamp timestamp) {
            return timestamp.toInstant();
        }
        throw new IllegalStateException("unexpected timestamp type " + value.getClass());
    }
}
