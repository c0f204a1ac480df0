package dev.herald.posts.repository;

import dev.herald.common.auth.Mode;
import dev.herald.common.persistence.NamedStatement;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;

/**
 * Fences of accounts being moved to another profile (decision 224, {@code V15__account_fences.sql}): accounts-service's
 * pending-posts check records one and lifts it once its move committed or failed. While a fence is in force (and for an
 * acceptance that began before it was lifted) {@link AcceptanceStatements} commits no post to the account.
 */
@ApplicationScoped
public class AccountFenceStatements {
    /** How long a lifted or expired fence is kept; well beyond any acceptance that could have begun before it ended. */
    static final Duration RETENTION = Duration.ofHours(1);

    // Exclusive: waits for every acceptance statement holding the shared lock to commit, and keeps new ones waiting
    // until the fence is committed (they then see it: account_fenced looks after taking the lock).
    private static final NamedStatement LOCK =
            NamedStatement.of("select pg_advisory_xact_lock(hashtextextended(:account_id, 0))");

    // A statement of its own after LOCK, so its snapshot sees the acceptances committed while LOCK waited. The
    // retention rides along: fences are rare (one per move), so this keeps the table tiny without a job of its own.
    private static final NamedStatement FENCE = NamedStatement.of("""
            with fence as (
                insert into account_fences (id, workspace_id, mode, account_id, created_at, expires_at, in_force_until)
                values (:id, :workspace_id, :mode, :account_id, :now, :expires_at, :expires_at)),
            purged as (delete from account_fences where in_force_until < :purge_before)
            select count(*) as pending from posts
            where workspace_id = :workspace_id and mode = :mode and status in ('queued', 'publishing')
                and id in (select post_id from post_targets where account_id = :account_id)""");

    private static final NamedStatement LIFT = NamedStatement.of("""
            update account_fences set lifted_at = :now, in_force_until = :now
            where id = :id and workspace_id = :workspace_id and mode = :mode and account_id = :account_id
                and lifted_at is null""");

    private final Pool pool;

    public AccountFenceStatements(Pool pool) {
        this.pool = pool;
    }

    /**
     * Records fence {@code id} on the account, in force until {@code expiresAt} unless lifted before, and answers how
     * many of the tenant's posts that are not final target the account, counting every acceptance that committed
     * before the fence did.
     */
    public Uni<Long> fence(String id, String workspaceId, Mode mode, String accountId, Instant now, Instant expiresAt) {
        return pool.withTransaction(connection -> LOCK.parameters()
                .set("account_id", accountId)
                .execute(connection)
                .chain(() -> FENCE.parameters()
                        .set("id", id)
                        .set("workspace_id", workspaceId)
                        .set("mode", mode.wireName())
                        .set("account_id", accountId)
                        .set("now", now)
                        .set("expires_at", expiresAt)
                        .set("purge_before", now.minus(RETENTION))
                        .execute(connection))
                .map(rows -> {
                    Row row = rows.iterator().next();
                    return row.getLong("pending");
                }));
    }

    /** Lifts the fence now: acceptances that begin from now on commit again. False when it was lifted already or is unknown. */
    public Uni<Boolean> lift(String id, String workspaceId, Mode mode, String accountId, Instant now) {
        return LIFT.parameters()
                .set("id", id)
                .set("workspace_id", workspaceId)
                .set("mode", mode.wireName())
                .set("account_id", accountId)
                .set("now", now)
                .execute(pool)
                .map(rows -> rows.rowCount() > 0);
    }
}
