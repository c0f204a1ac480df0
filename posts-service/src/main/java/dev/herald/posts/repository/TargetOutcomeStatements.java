package dev.herald.posts.repository;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.outbox.OutboxWriter;
import dev.herald.common.persistence.SqlParameters;
import dev.herald.posts.model.PostEntity;
import dev.herald.posts.model.PostTargetEntity;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;

/**
 * A delivery outcome applied in one statement on the Vert.x pool, against the post and target as they were read
 * without a lock: the target's outcome, the post's new state (final or not), the event's processed mark, and once
 * the post is final its {@code post.finalized} event and profile-hold releases. A single statement is its own transaction: no BEGIN and COMMIT round trips, no Hibernate flush.
 */
@ApplicationScoped
public class TargetOutcomeStatements {
    private final Pool pool;
    private final OutboxWriter outbox;

    public TargetOutcomeStatements(Pool pool, ObjectMapper mapper) {
        this.pool = pool;
        this.outbox = new OutboxWriter(mapper);
    }

    /**
     * What one outcome changes. {@code post} and {@code target} carry their new state; {@code readUpdatedAt},
     * {@code readStatus} and {@code readTargetStatus} are what the read saw. Every change of a post's targets
     * (dispatch, outcome, cancellation) also moves the post's {@code updated_at}, so an unchanged post row means
     * unchanged targets. {@code finalized} and {@code holdsOf} only when the post became final.
     */
    public record Outcome(
            PostEntity post,
            Instant readUpdatedAt,
            String readStatus,
            PostTargetEntity target,
            String readTargetStatus,
            String eventId,
            OutboxWriter.Entry finalized,
            List<String> holdsOf) {}

    /**
     * Writes the outcome if the post is still as read and the event was not applied before; false otherwise, and
     * then nothing is written. The post's row is locked first, as in the transactional path.
     */
    public Uni<Boolean> apply(Outcome outcome) {
        PostEntity post = outcome.post();
        PostTargetEntity target = outcome.target();
        Tuple parameters = SqlParameters.of(
                post.id,
                target.accountId,
                post.updatedAt,
                post.status,
                post.finalizedAt,
                outcome.readUpdatedAt(),
                outcome.readStatus(),
                outcome.readTargetStatus(),
                outcome.eventId(),
                target.status,
                target.attempts,
                target.providerPostId,
                target.url,
                target.error,
                target.completedAt);
        outbox.bind(parameters, outcome.finalized())
                .addValue(outcome.holdsOf().toArray(String[]::new))
                .addValue(post.workspaceId)
                .addValue(post.mode);
        return pool.preparedQuery("""
                        with post as (
                            update posts set updated_at = $3, status = $4, finalized_at = $5
                            where id = $1 and updated_at = $6 and status = $7
                                and exists (select 1 from post_targets where post_id = $1 and account_id = $2 and status = $8)
                                and not exists (select 1 from processed_events where event_id = $9)
                            returning id),
                        target as (
                            update post_targets t set status = $10, attempts = $11, provider_post_id = $12, url = $13,
                                error = $14::text::jsonb, completed_at = $15, updated_at = $3
                            from post where t.post_id = post.id and t.account_id = $2 and t.status = $8
                            returning t.post_id),
                        marked as (
                            insert into processed_events (event_id) select $9 from target),
                        finalized as (
                            insert into outbox (event_id, topic, message_key, payload, trace_parent)
                            select $16, $17, $18, $19::text::jsonb, $20 from target where $16::text is not null),
                        held as (
                            insert into profile_hold_releases (profile_id, post_id, workspace_id, mode)
                            select h.profile_id, $1, $22, $23 from target, unnest($21::text[]) as h(profile_id)
                            on conflict do nothing)
                        select count(*) as applied from target""")
                .execute(parameters)
                .map(rows -> rows.iterator().next().getLong("applied") > 0);
    }
}
