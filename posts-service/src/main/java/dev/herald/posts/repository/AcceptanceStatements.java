package dev.herald.posts.repository;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.auth.Mode;
import dev.herald.common.outbox.OutboxWriter;
import dev.herald.common.persistence.NamedStatement;
import dev.herald.posts.model.PostEntity;
import dev.herald.posts.model.PostTargetEntity;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;

/**
 * Commits an accepted post in one statement on the Vert.x pool: the post, its targets, its {@code post.accepted}
 * event when it is due now, the Idempotency-Key's stored answer, the end of its unfinished-acceptance record, and the
 * series it starts when it repeats ({@link SeriesStatements#insertFrom}). A
 * single statement is its own transaction: no BEGIN and COMMIT round trips, no Hibernate persist and flush.
 *
 * <p>It writes nothing while one of the post's accounts is fenced ({@link AccountFenceStatements}, decision 224): the
 * {@code account_fenced} function takes the shared advisory lock of each account, held until the commit, then asks
 * whether a fence of one of them was in force at any time since {@code since} (the request's start). Without a fence
 * that is two in-memory lock entries and an index-only probe of a table holding only the last hour's moves.
 */
@ApplicationScoped
public class AcceptanceStatements {
    /**
     * The statement; its last step inserts the series the post starts ({@link SeriesStatements#insertFrom}), nothing
     * when it starts none. It stays prepared on each connection ({@code StatementCachingPoolCreator}).
     */
    private static final String COMMIT_SQL = """
            with fence as materialized (select account_fenced(:account_ids::text[], :since) as fenced),
            pending as (
                select post_id from unfinished_acceptances
                where post_id = :post_id and not abandoned and not (select fenced from fence) for update),
            completed as (
                update idempotency_keys set state = 'completed', post_id = :post_id, response = :response,
                    expires_at = :expires_at
                where workspace_id = :workspace_id and mode = :mode and key = :key and claim_token = :claim_token
                    and state = 'in_flight' and exists (select 1 from pending)
                returning post_id),
            finished as (
                delete from unfinished_acceptances where post_id = :post_id and exists (select 1 from completed)),
            post as (
                insert into posts (id, workspace_id, mode, text, media, scheduled_at, due_at, platform_options,
                    first_comment, status, created_at, updated_at, dispatched_at, trace_parent, series_id)
                select :post_id, :workspace_id, :mode, :text, :media::text::jsonb, :scheduled_at, :due_at,
                    :platform_options::text::jsonb, :first_comment::text::jsonb, :status, :created_at, :updated_at,
                    :dispatched_at, :trace_parent, :series_id
                where exists (select 1 from completed)
                returning id),
            targets as (
                insert into post_targets (post_id, position, account_id, platform, profile_id, account_username,
                    reservation_id, status, attempts, first_comment, updated_at)
                select post.id, t.position, t.account_id, t.platform, t.profile_id, t.account_username,
                    t.reservation_id, t.status, 0, t.first_comment::jsonb, t.updated_at
                from post, unnest(:positions::integer[], :account_ids::text[], :platforms::text[], :profile_ids::text[],
                    :usernames::text[], :reservation_ids::text[], :statuses::text[], :first_comments::text[],
                    :targets_updated_at::timestamptz[])
                    as t(position, account_id, platform, profile_id, account_username, reservation_id, status,
                        first_comment, updated_at)),
            handed_over as (%s),
            series as (%s)
            select count(*) as committed, (select fenced from fence) as fenced from completed""";

    static final NamedStatement COMMIT = NamedStatement.of(
            COMMIT_SQL.formatted(OutboxWriter.insertOnePerRowOf("post"), SeriesStatements.insertFrom("post")));

    private final Pool pool;
    private final OutboxWriter outbox;

    public AcceptanceStatements(Pool pool, ObjectMapper mapper) {
        this.pool = pool;
        this.outbox = new OutboxWriter(mapper);
    }

    /** The key whose claim the acceptance holds, and the answer to store on it for replays. */
    public record CompletedKey(String key, String claimToken, String response, Instant expiresAt) {}

    /** What {@link #commit} did. */
    public enum Outcome {
        COMMITTED,
        /**
         * Nothing written: the key's claim is no longer this request's (it expired and another request took the key)
         * or the acceptance was abandoned ({@code AbandonedAcceptanceJob} took the key back and gives back what the
         * request took).
         */
        CLAIM_LOST,
        /** Nothing written: an account of the post is, or was since {@code since}, being moved to another profile. */
        FENCED
    }

    /**
     * Writes everything, or nothing (see {@link Outcome}). The unfinished-acceptance row is locked before the key's
     * row, the order the job locks them in, so the two never deadlock. {@code handover} is null for a scheduled post;
     * {@code since} is the request's start less the replicas' clock skew.
     */
    public Uni<Outcome> commit(
            PostEntity post,
            List<PostTargetEntity> targets,
            Mode mode,
            CompletedKey completed,
            OutboxWriter.Entry handover,
            Instant since) {
        return commit(post, targets, mode, completed, handover, since, null);
    }

    /** The same for a post that starts {@code series} (null when it starts none; a copy names its series itself). */
    public Uni<Outcome> commit(
            PostEntity post,
            List<PostTargetEntity> targets,
            Mode mode,
            CompletedKey completed,
            OutboxWriter.Entry handover,
            Instant since,
            SeriesStatements.NewSeries series) {
        int count = targets.size();
        Integer[] positions = new Integer[count];
        String[] accountIds = new String[count];
        String[] platforms = new String[count];
        String[] profileIds = new String[count];
        String[] usernames = new String[count];
        String[] reservationIds = new String[count];
        String[] statuses = new String[count];
        String[] firstComments = new String[count];
        Instant[] updatedAt = new Instant[count];
        for (int i = 0; i < count; i++) {
            PostTargetEntity target = targets.get(i);
            positions[i] = target.position;
            accountIds[i] = target.accountId;
            platforms[i] = target.platform;
            profileIds[i] = target.profileId;
            usernames[i] = target.accountUsername;
            reservationIds[i] = target.reservationId;
            statuses[i] = target.status;
            firstComments[i] = target.firstComment;
            updatedAt[i] = target.updatedAt;
        }
        NamedStatement.Parameters parameters = COMMIT.parameters()
                .set("post_id", post.id)
                .set("workspace_id", post.workspaceId)
                .set("mode", mode.wireName())
                .set("text", post.text)
                .set("media", post.media)
                .set("scheduled_at", post.scheduledAt)
                .set("due_at", post.dueAt)
                .set("platform_options", post.platformOptions)
                .set("first_comment", post.firstComment)
                .set("status", post.status)
                .set("created_at", post.createdAt)
                .set("updated_at", post.updatedAt)
                .set("dispatched_at", post.dispatchedAt)
                .set("trace_parent", post.traceParent)
                .set("key", completed.key())
                .set("claim_token", completed.claimToken())
                .set("response", completed.response())
                .set("expires_at", completed.expiresAt())
                .set("positions", positions)
                .set("account_ids", accountIds)
                .set("platforms", platforms)
                .set("profile_ids", profileIds)
                .set("usernames", usernames)
                .set("reservation_ids", reservationIds)
                .set("statuses", statuses)
                .set("first_comments", firstComments)
                .set("targets_updated_at", updatedAt)
                .set("since", since);
        return outbox.bind(SeriesStatements.bind(parameters, post.seriesId, series), handover)
                .execute(pool)
                .map(rows -> {
                    Row row = rows.iterator().next();
                    if (row.getLong("committed") > 0) {
                        return Outcome.COMMITTED;
                    }
                    return row.getBoolean("fenced") ? Outcome.FENCED : Outcome.CLAIM_LOST;
                });
    }
}
