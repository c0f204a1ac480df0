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
import java.util.List;

/**
 * {@code FirstCommentJob}'s claims on published targets whose first comment is pending ({@code V11__first_comments.sql}):
 * {@code SKIP LOCKED} and a lease, so replicas share the work and a dead replica's claims fall due again; and the
 * postponement of one after a temporary failure. Settling one locks its post ({@code FirstCommentPosting}).
 */
@ApplicationScoped
public class FirstCommentStatements {
    private static final NamedStatement CLAIM_DUE = NamedStatement.of("""
            with due as (
                select post_id, account_id from post_targets
                where status = 'published' and first_comment ->> 'status' = 'pending'
                  and (first_comment_due_at is null or first_comment_due_at <= :now)
                order by first_comment_due_at nulls first limit :limit for update skip locked)
            update post_targets t set first_comment_due_at = :lease_until,
                first_comment_attempts = t.first_comment_attempts + 1
            from due, posts p
            where t.post_id = due.post_id and t.account_id = due.account_id and p.id = t.post_id
            returning t.post_id, t.account_id, t.platform, t.provider_post_id, t.completed_at,
                t.first_comment_attempts, p.workspace_id, p.mode, cast(p.first_comment as text) as first_comment,
                cast(p.platform_options as text) as platform_options""");

    private static final NamedStatement POSTPONE = NamedStatement.of("""
            update post_targets set first_comment_due_at = :due_at
            where post_id = :post_id and account_id = :account_id and first_comment ->> 'status' = 'pending'""");

    private final Pool pool;

    public FirstCommentStatements(Pool pool) {
        this.pool = pool;
    }

    /**
     * A claimed first comment: its target, the try this is ({@code attempts}, from 1), and the post's
     * {@code first_comment} and {@code platform_options} as JSON text (its text is decided from them).
     */
    public record Due(
            String postId,
            String accountId,
            String platform,
            String providerPostId,
            Instant publishedAt,
            int attempts,
            String workspaceId,
            Mode mode,
            String postFirstComment,
            String platformOptions) {}

    /** Up to {@code limit} due first comments, each claimed until {@code leaseUntil}. */
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
                                row.getString("platform"),
                                row.getString("provider_post_id"),
                                SqlParameters.instant(row, "completed_at"),
                                row.getInteger("first_comment_attempts"),
                                row.getString("workspace_id"),
                                Mode.fromWire(row.getString("mode")).orElseThrow(),
                                row.getString("first_comment"),
                                row.getString("platform_options")));
                    }
                    return due;
                });
    }

    /** The next try at a first comment still pending comes at {@code dueAt}. */
    public Uni<Void> postpone(String postId, String accountId, Instant dueAt) {
        return POSTPONE.parameters()
                .set("post_id", postId)
                .set("account_id", accountId)
                .set("due_at", dueAt)
                .execute(pool)
                .replaceWithVoid();
    }
}
