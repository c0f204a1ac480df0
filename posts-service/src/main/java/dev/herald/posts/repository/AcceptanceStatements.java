package dev.herald.posts.repository;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.auth.Mode;
import dev.herald.common.outbox.OutboxWriter;
import dev.herald.common.persistence.SqlParameters;
import dev.herald.posts.model.PostEntity;
import dev.herald.posts.model.PostTargetEntity;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;

/**
 * Commits an accepted post in one statement on the Vert.x pool: the post, its targets, its {@code post.accepted}
 * event when it is due now, the Idempotency-Key's stored answer, and the end of its unfinished-acceptance record. A
 * single statement is its own transaction: no BEGIN and COMMIT round trips, no Hibernate persist and flush.
 */
@ApplicationScoped
public class AcceptanceStatements {
    private final Pool pool;
    private final OutboxWriter outbox;

    public AcceptanceStatements(Pool pool, ObjectMapper mapper) {
        this.pool = pool;
        this.outbox = new OutboxWriter(mapper);
    }

    /** The key whose claim the acceptance holds, and the answer to store on it for replays. */
    public record CompletedKey(String key, String claimToken, String response, Instant expiresAt) {}

    /**
     * Writes everything, or nothing and answers false: when the key's claim is no longer this request's (it expired
     * and another request took the key) or the acceptance was abandoned ({@code AbandonedAcceptanceJob} took the
     * key back and gives back what the request took). The unfinished-acceptance row is locked before the key's row,
     * the order the job locks them in, so the two never deadlock. {@code handover} is null for a scheduled post.
     */
    public Uni<Boolean> commit(
            PostEntity post,
            List<PostTargetEntity> targets,
            Mode mode,
            CompletedKey completed,
            OutboxWriter.Entry handover) {
        int count = targets.size();
        Integer[] positions = new Integer[count];
        String[] accountIds = new String[count];
        String[] platforms = new String[count];
        String[] profileIds = new String[count];
        String[] usernames = new String[count];
        String[] reservationIds = new String[count];
        String[] statuses = new String[count];
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
            updatedAt[i] = target.updatedAt;
        }
        OffsetDateTime[] targetsUpdatedAt = SqlParameters.offsets(updatedAt);
        Tuple parameters = SqlParameters.of(
                post.id,
                post.workspaceId,
                mode.wireName(),
                post.text,
                post.mediaUrl,
                post.mediaType,
                post.scheduledAt,
                post.dueAt,
                post.platformOptions,
                post.status,
                post.createdAt,
                post.updatedAt,
                post.dispatchedAt,
                post.traceParent,
                completed.key(),
                completed.claimToken(),
                completed.response(),
                completed.expiresAt(),
                positions,
                accountIds,
                platforms,
                profileIds,
                usernames,
                reservationIds,
                statuses,
                targetsUpdatedAt);
        outbox.bind(parameters, handover);
        return pool.preparedQuery("""
                        with pending as (
                            select post_id from unfinished_acceptances where post_id = $1 and not abandoned for update),
                        completed as (
                            update idempotency_keys set state = 'completed', post_id = $1, response = $17, expires_at = $18
                            where workspace_id = $2 and mode = $3 and key = $15 and claim_token = $16 and state = 'in_flight'
                                and exists (select 1 from pending)
                            returning post_id),
                        finished as (
                            delete from unfinished_acceptances where post_id = $1 and exists (select 1 from completed)),
                        post as (
                            insert into posts (id, workspace_id, mode, text, media_url, media_type, scheduled_at, due_at,
                                platform_options, status, created_at, updated_at, dispatched_at, trace_parent)
                            select $1, $2, $3, $4, $5, $6, $7, $8, $9::text::jsonb, $10, $11, $12, $13, $14
                            where exists (select 1 from completed)
                            returning id),
                        targets as (
                            insert into post_targets (post_id, position, account_id, platform, profile_id, account_username,
                                reservation_id, status, attempts, updated_at)
                            select post.id, t.position, t.account_id, t.platform, t.profile_id, t.account_username,
                                t.reservation_id, t.status, 0, t.updated_at
                            from post, unnest($19::integer[], $20::text[], $21::text[], $22::text[], $23::text[], $24::text[],
                                $25::text[], $26::timestamptz[])
                                as t(position, account_id, platform, profile_id, account_username, reservation_id, status,
                                    updated_at)),
                        handed_over as (
                            insert into outbox (event_id, topic, message_key, payload, trace_parent)
                            select $27, $28, $29, $30::text::jsonb, $31 from post where $27::text is not null)
                        select count(*) as committed from completed""")
                .execute(parameters)
                .map(rows -> rows.iterator().next().getLong("committed") > 0);
    }
}
