package dev.herald.accounts.repository;

import dev.herald.common.persistence.NamedStatement;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The retry job's work on the queue of provider revocations ({@link ProviderRevocationRepository} queues them), through
 * the Vert.x pool: Hibernate would store a new plan for its native select on every poll (it keys the plan by a result
 * mapping built anew).
 */
@ApplicationScoped
public class ProviderRevocationStatements {
    private static final NamedStatement CLAIM_DUE = NamedStatement.of("""
            select id, account_id, workspace_id, mode, platform, ciphertext, attempts, expires_at
            from provider_revocations where next_attempt_at <= :now
            order by next_attempt_at limit :max for update skip locked""");

    private static final NamedStatement RESCHEDULE = NamedStatement.of(
            "update provider_revocations set attempts = :attempts, next_attempt_at = :next_attempt_at, last_error = :last_error where id = :id");

    private static final NamedStatement DELETE = NamedStatement.of("delete from provider_revocations where id = :id");

    private final Pool pool;

    public ProviderRevocationStatements(Pool pool) {
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

    /** Runs {@code work} in one transaction of its own, for the queue methods below that take its connection. */
    public <T> Uni<T> inTransaction(Function<SqlConnection, Uni<T>> work) {
        return pool.withTransaction(work);
    }

    /** Due revocations, claimed for the connection's transaction ({@code SKIP LOCKED}: replicas never take the same row). */
    public Uni<List<PendingRevocation>> claimDue(SqlConnection connection, Instant now, int max) {
        return CLAIM_DUE
                .parameters()
                .set("now", now)
                .set("max", max)
                .execute(connection)
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
        return RESCHEDULE
                .parameters()
                .set("id", id)
                .set("attempts", attempts)
                .set("next_attempt_at", nextAttemptAt)
                .set("last_error", lastError)
                .execute(connection)
                .replaceWithVoid();
    }

    /** Removes the row and with it the encrypted grant (revoked, or given up on). */
    public Uni<Void> delete(SqlConnection connection, long id) {
        return DELETE.parameters().set("id", id).execute(connection).replaceWithVoid();
    }
}
