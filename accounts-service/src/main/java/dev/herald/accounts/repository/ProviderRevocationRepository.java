package dev.herald.accounts.repository;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The queue of provider revocations still to be done, each holding only the encrypted grant. Rows join the queue in
 * the Hibernate transaction that disconnects the account; the retry job works the queue through the Vert.x pool,
 * since Hibernate would store a new plan for its native select on every poll (it keys the plan by a result mapping
 * built anew).
 */
@ApplicationScoped
public class ProviderRevocationRepository {
    private final Pool pool;

    public ProviderRevocationRepository(Pool pool) {
        this.pool = pool;
    }

    /** One queued revocation, as the retry job sees it. */
    public record PendingRevocation(
            long id,
            String accountId,
            String workspaceId,
            String mode,
            String platform,
            byte[] ciphertext,
            int attempts,
            Instant expiresAt) {}

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

    /** Runs {@code work} in one transaction of its own, for the queue methods below that take its connection. */
    public <T> Uni<T> inTransaction(Function<SqlConnection, Uni<T>> work) {
        return pool.withTransaction(work);
    }

    /** Due revocations, claimed for the connection's transaction ({@code SKIP LOCKED}: replicas never take the same row). */
    public Uni<List<PendingRevocation>> claimDue(SqlConnection connection, Instant now, int max) {
        return connection
                .preparedQuery("""
                        select id, account_id, workspace_id, mode, platform, ciphertext, attempts, expires_at
                        from provider_revocations where next_attempt_at <= $1
                        order by next_attempt_at limit $2 for update skip locked""")
                .execute(Tuple.of(now.atOffset(ZoneOffset.UTC), max))
                .map(rows -> {
                    List<PendingRevocation> due = new ArrayList<>();
                    for (Row row : rows) {
                        due.add(new PendingRevocation(
                                row.getLong("id"),
                                row.getString("account_id"),
                                row.getString("workspace_id"),
                                row.getString("mode"),
                                row.getString("platform"),
                                row.getBuffer("ciphertext").getBytes(),
                                row.getInteger("attempts"),
                                row.getOffsetDateTime("expires_at").toInstant()));
                    }
                    return due;
                });
    }

    public Uni<Void> reschedule(
            SqlConnection connection, long id, int attempts, Instant nextAttemptAt, String lastError) {
        return connection
                .preparedQuery(
                        "update provider_revocations set attempts = $2, next_attempt_at = $3, last_error = $4 where id = $1")
                .execute(Tuple.of(id, attempts, nextAttemptAt.atOffset(ZoneOffset.UTC), lastError))
                .replaceWithVoid();
    }

    /** Removes the row and with it the encrypted grant (revoked, or given up on). */
    public Uni<Void> delete(SqlConnection connection, long id) {
        return connection
                .preparedQuery("delete from provider_revocations where id = $1")
                .execute(Tuple.of(id))
                .replaceWithVoid();
    }
}
