package dev.herald.posts.repository;

import dev.herald.common.auth.Mode;
import dev.herald.common.persistence.NamedStatement;
import dev.herald.common.persistence.SqlParameters;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The last numbers read for each published target ({@code V7__post_analytics.sql}), and the refresher's claims on
 * the targets due for another read. Each statement runs on its own: nothing here needs a transaction across calls.
 */
@ApplicationScoped
public class PostAnalyticsStatements {
    private static final NamedStatement FOR_POST = NamedStatement.of("""
            select account_id, cast(metrics as text) as metrics, cast(raw as text) as raw, refreshed_at
            from post_analytics where post_id = :post_id""");

    private static final NamedStatement STORED = NamedStatement.of("""
            insert into post_analytics (post_id, account_id, workspace_id, mode, metrics, raw, refreshed_at,
                                        last_error, next_refresh_at)
            values (:post_id, :account_id, :workspace_id, :mode, cast(cast(:metrics as text) as jsonb), cast(cast(:raw as text) as jsonb), :refreshed_at, null, :next_refresh_at)
            on conflict (post_id, account_id) do update set metrics = excluded.metrics, raw = excluded.raw,
                refreshed_at = excluded.refreshed_at, last_error = null, next_refresh_at = excluded.next_refresh_at""");

    private static final NamedStatement NOT_READ = NamedStatement.of("""
            insert into post_analytics (post_id, account_id, workspace_id, mode, last_error, next_refresh_at)
            values (:post_id, :account_id, :workspace_id, :mode, :error, :next_refresh_at)
            on conflict (post_id, account_id) do update set last_error = excluded.last_error,
                next_refresh_at = excluded.next_refresh_at""");

    private static final NamedStatement TRACK = NamedStatement.of("""
            insert into post_analytics (post_id, account_id, workspace_id, mode, next_refresh_at)
            select t.post_id, t.account_id, p.workspace_id, p.mode, :now
            from post_targets t join posts p on p.id = t.post_id
            where t.status = 'published' and t.provider_post_id is not null and t.completed_at >= :published_since
              and not exists (select 1 from post_analytics a where a.post_id = t.post_id and a.account_id = t.account_id)
            order by t.completed_at limit :limit
            on conflict (post_id, account_id) do nothing""");

    private static final NamedStatement CLAIM_DUE = NamedStatement.of("""
            with due as (
                select post_id, account_id from post_analytics
                where next_refresh_at <= :now order by next_refresh_at limit :limit for update skip locked)
            update post_analytics a set next_refresh_at = :lease_until
            from due, post_targets t
            where a.post_id = due.post_id and a.account_id = due.account_id
              and t.post_id = a.post_id and t.account_id = a.account_id
            returning a.post_id, a.account_id, a.workspace_id, a.mode, t.platform, t.provider_post_id, t.completed_at""");

    private final Pool pool;

    public PostAnalyticsStatements(Pool pool) {
        this.pool = pool;
    }

    /** The last successful read of a target: metrics and raw as JSON text, null before any. */
    public record Cached(String metrics, String raw, Instant refreshedAt) {}

    /** A published target the refresher claimed. */
    public record Due(
            String postId,
            String accountId,
            String workspaceId,
            Mode mode,
            String platform,
            String providerPostId,
            Instant publishedAt) {}

    /** The cached reads of a post's targets, by account id. */
    public Uni<Map<String, Cached>> forPost(String postId) {
        return FOR_POST.parameters().set("post_id", postId).execute(pool).map(rows -> {
            Map<String, Cached> cached = new HashMap<>();
            for (Row row : rows) {
                cached.put(
                        row.getString("account_id"),
                        new Cached(
                                row.getString("metrics"),
                                row.getString("raw"),
                                SqlParameters.instant(row, "refreshed_at")));
            }
            return cached;
        });
    }

    /** A successful read: its numbers, when, and when the refresher should read again (null: no longer). */
    public Uni<Void> stored(
            String postId,
            String accountId,
            String workspaceId,
            Mode mode,
            String metrics,
            String raw,
            Instant refreshedAt,
            Instant nextRefreshAt) {
        return STORED.parameters()
                .set("post_id", postId)
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
    public Uni<Void> notRead(
            String postId, String accountId, String workspaceId, Mode mode, String error, Instant nextRefreshAt) {
        return NOT_READ.parameters()
                .set("post_id", postId)
                .set("account_id", accountId)
                .set("workspace_id", workspaceId)
                .set("mode", mode.wireName())
                .set("error", error)
                .set("next_refresh_at", nextRefreshAt)
                .execute(pool)
                .replaceWithVoid();
    }

    /**
     * Starts tracking targets published at or after {@code publishedSince} that have no row yet (at most
     * {@code limit}), due at once; the number started.
     */
    public Uni<Integer> track(Instant publishedSince, Instant now, int limit) {
        return TRACK.parameters()
                .set("published_since", publishedSince)
                .set("now", now)
                .set("limit", limit)
                .execute(pool)
                .map(rows -> rows.rowCount());
    }

    /**
     * Claims up to {@code limit} targets due at {@code now} (rows another replica holds are skipped), moving them to
     * {@code leaseUntil} so that no other pass takes them meanwhile; a pass that dies lets them fall due again then.
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
                                row.getString("post_id"),
                                row.getString("account_id"),
                                row.getString("workspace_id"),
                                Mode.fromWire(row.getString("mode")).orElseThrow(),
                                row.getString("platform"),
                                row.getString("provider_post_id"),
                                SqlParameters.instant(row, "completed_at")));
                    }
                    return due;
                });
    }
}
