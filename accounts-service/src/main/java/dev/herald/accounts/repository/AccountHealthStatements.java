package dev.herald.accounts.repository;

import dev.herald.common.persistence.NamedStatement;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The health job's claims on the accounts due for a check ({@code accounts.next_check_at}, and the checks ahead of
 * scheduled posts in {@code account_due_checks}), and the recording of those checks. Each statement runs on its own.
 */
@ApplicationScoped
public class AccountHealthStatements {
    /**
     * Claims healthy connected accounts whose regular check or a check ahead of a post is due, moves their
     * {@code next_check_at} to the lease's end (a replica that dies mid-check leaves the account due again then) and
     * deletes the due checks it covers. Replicas never claim one account twice: locked rows are skipped, and a row
     * another replica claimed meanwhile fails the re-checked conditions (its next_check_at is the lease, its due checks
     * are locked or gone, so absent from {@code due_checks}).
     */
    private static final NamedStatement CLAIM_DUE = NamedStatement.of("""
            with due_checks as (
                select account_id from account_due_checks where check_at <= :now for update skip locked),
            candidates as (
                select id from accounts where next_check_at <= :now
                union
                select account_id from due_checks),
            due as (
                select a.id from accounts a
                where a.id in (select id from candidates)
                  and a.status = 'connected' and a.health_status = 'healthy'
                  and (a.next_check_at <= :now or a.id in (select account_id from due_checks))
                order by a.next_check_at limit :limit
                for update of a skip locked),
            covered as (
                delete from account_due_checks d using due where d.account_id = due.id and d.check_at <= :now)
            update accounts a set next_check_at = :lease_until from due where a.id = due.id
            returning a.id""");

    private static final NamedStatement RECORD_DUE = NamedStatement.of("""
            insert into account_due_checks (account_id, check_at) values (:account_id, :check_at)
            on conflict do nothing""");

    private static final NamedStatement GRANT_END = NamedStatement.of(
            "update accounts set token_expires_at = :token_expires_at where id = :account_id and status = 'connected'");

    /** Checks ahead of posts whose account broke or was disconnected are never claimed; they go when long past. */
    private static final NamedStatement PURGE_STALE =
            NamedStatement.of("delete from account_due_checks where check_at < :before");

    private final Pool pool;

    public AccountHealthStatements(Pool pool) {
        this.pool = pool;
    }

    /** The ids of at most {@code limit} accounts due for a check, claimed until {@code leaseUntil}. */
    public Uni<List<String>> claimDue(Instant now, Instant leaseUntil, int limit) {
        return CLAIM_DUE
                .parameters()
                .set("now", now)
                .set("lease_until", leaseUntil)
                .set("limit", limit)
                .execute(pool)
                .map(rows -> {
                    List<String> ids = new ArrayList<>();
                    for (Row row : rows) {
                        ids.add(row.getString("id"));
                    }
                    return ids;
                });
    }

    /** A check of the account at {@code checkAt}, ahead of one of its scheduled posts (once per time). */
    public Uni<Void> recordDueCheck(String accountId, Instant checkAt) {
        return RECORD_DUE
                .parameters()
                .set("account_id", accountId)
                .set("check_at", checkAt)
                .execute(pool)
                .replaceWithVoid();
    }

    /** Where a renewal moved the end of Herald's access (a rotated refresh token's, or a renewed token's own). */
    public Uni<Void> recordGrantEnd(String accountId, Instant tokenExpiresAt) {
        return GRANT_END
                .parameters()
                .set("account_id", accountId)
                .set("token_expires_at", tokenExpiresAt)
                .execute(pool)
                .replaceWithVoid();
    }

    public Uni<Void> purgeStale(Instant before) {
        return PURGE_STALE.parameters().set("before", before).execute(pool).replaceWithVoid();
    }
}
