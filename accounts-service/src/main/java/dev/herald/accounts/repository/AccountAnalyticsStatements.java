package dev.herald.accounts.repository;

import dev.herald.common.auth.Mode;
import dev.herald.common.persistence.NamedStatement;
import dev.herald.common.persistence.SqlParameters;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The last numbers read for each connected account ({@code V12__account_analytics.sql}), and the refresher's claims
 * on the accounts due for another read. Each statement runs on its own. (Disconnection deletes a row with the
 * account's other provider answers, in {@link ProviderReadCacheRepository#deleteAll}.)
 */
@ApplicationScoped
public class AccountAnalyticsStatements {
    private static final NamedStatement FIND = NamedStatement.of("""
            select cast(metrics as text) as metrics, cast(raw as text) as raw, refreshed_at
            from account_analytics where account_id = :account_id and refreshed_at is not null""");

    private static final NamedStatement STORED = NamedStatement.of("""
            insert into account_analytics (account_id, workspace_id, mode, metrics, raw, refreshed_at, last_error,
                                           next_refresh_at)
            values (:account_id, :workspace_id, :mode, cast(cast(:metrics as text) as jsonb), cast(cast(:raw as text) as jsonb), :refreshed_at, null, :next_refresh_at)
            on conflict (account_id) do update set metrics = excluded.metrics, raw = excluded.raw,
                refreshed_at = excluded.refreshed_at, last_error = null, next_refresh_at = excluded.next_refresh_at""");

    private static final NamedStatement NOT_READ = NamedStatement.of("""
            insert into account_analytics (account_id, workspace_id, mode, last_error, next_refresh_at)
            values (:account_id, :workspace_id, :mode, :error, :next_refresh_at)
            on conflict (account_id) do update set last_error = excluded.last_error,
                next_refresh_at = excluded.next_refresh_at""");

    private static final NamedStatement TRACK = NamedStatement.of("""
            insert into account_analytics (account_id, workspace_id, mode, next_refresh_at)
            select a.id, a.workspace_id, a.mode, :now from accounts a
            where a.status = 'connected'
              and not exists (select 1 from account_analytics x where x.account_id = a.id)
            order by a.connected_at limit :limit
            on conflict (account_id) do nothing""");

    private static final NamedStatement CLAIM_DUE = NamedStatement.of("""
            with due as (
                select x.account_id from account_analytics x join accounts a on a.id = x.account_id
                where x.next_refresh_at <= :now and a.status = 'connected'
                order by x.next_refresh_at limit :limit for update of x skip locked)
            update account_analytics x set next_refresh_at = :lease_until
            from due, accounts a
            where x.account_id = due.account_id and a.id = x.account_id
            returning x.account_id, a.workspace_id, a.mode, a.platform, a.external_id, a.created_at,
                      a.consent_accepted_at is not null as consented""");

    private final Pool pool;

    public AccountAnalyticsStatements(Pool pool) {
        this.pool = pool;
    }

    /** The last successful read: metrics and raw as JSON text; null before any. */
    public record Cached(String metrics, String raw, Instant refreshedAt) {}

    /** A connected account the refresher claimed, with what deciding and reading need. */
    public record Due(
            String accountId,
            String workspaceId,
            Mode mode,
            String platform,
            String externalId,
            Instant createdAt,
            boolean consented) {}

    /** The account's cached numbers, or null when none were read yet. */
    public Uni<Cached> find(String accountId) {
        return FIND.parameters().set("account_id", accountId).execute(pool).map(rows -> {
            for (Row row : rows) {
                return new Cached(
                        row.getString("metrics"), row.getString("raw"), SqlParameters.instant(row, "refreshed_at"));
            }
            return null;
        });
    }

    public Uni<Void> stored(
            String accountId,
            String workspaceId,
            Mode mode,
            String metrics,
            String raw,
            Instant refreshedAt,
            Instant nextRefreshAt) {
        return STORED.parameters()
                .set("account_id", accountId)
                .set("workspace_id", workspaceId)
                .set("mode", mode.wireName())
                .set("metrics", metrics)
                .set("raw", raw)
                .set("refreshed_at", refreshedAt)
                .set("next_refresh_at", nextRefreshAt)
                .execute(pool)
                .replaceWithVoid();
    }

    /** A read that did not happen ({@code error} says why); the last numbers stay. */
    public Uni<Void> notRead(String accountId, String workspaceId, Mode mode, String error, Instant nextRefreshAt) {
        return NOT_READ.parameters()
                .set("account_id", accountId)
                .set("workspace_id", workspaceId)
                .set("mode", mode.wireName())
                .set("error", error)
                .set("next_refresh_at", nextRefreshAt)
                .execute(pool)
                .replaceWithVoid();
    }

    /** Starts tracking connected accounts that have no row yet (at most {@code limit}), due at once; the number. */
    public Uni<Integer> track(Instant now, int limit) {
        return TRACK.parameters()
                .set("now", now)
                .set("limit", limit)
                .execute(pool)
                .map(rows -> rows.rowCount());
    }

    /**
     * Claims up to {@code limit} connected accounts due at {@code now} (rows another replica holds are skipped),
     * moving them to {@code leaseUntil} so that no other pass takes them meanwhile.
     */
    public Uni<List<Due>> claimDue(Instant now, Instant leaseUntil, int limit) {
        return CLAIM_DUE
                .parameters()
                .set("now", now)
                .set("lease_until", leaseUntil)
                .set("limit", limit)
                .execute(pool)
                .map(rows -> {
                    List<Due> due = new ArrayList<>();
                    for (Row row : rows) {
                        due.add(new Due(
                                row.getString("account_id"),
                                row.getString("workspace_id"),
                                Mode.fromWire(row.getString("mode")).orElseThrow(),
                                row.getString("platform"),
                                row.getString("external_id"),
                                SqlParameters.instant(row, "created_at"),
                                row.getBoolean("consented")));
                    }
                    return due;
                });
    }
}
