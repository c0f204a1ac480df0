package dev.herald.posts.repository;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.messaging.ProcessedEvents;
import dev.herald.common.outbox.OutboxWriter;
import dev.herald.common.persistence.NamedStatement;
import dev.herald.posts.model.PostEntity;
import dev.herald.posts.model.PostTargetEntity;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
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
    private static final NamedStatement APPLY = NamedStatement.of("""
            with post as (
                update posts set updated_at = :updated_at, status = :status, finalized_at = :finalized_at
                where id = :post_id and updated_at = :read_updated_at and status = :read_status
                    and exists (select 1 from post_targets
                        where post_id = :post_id and account_id = :account_id and status = :read_target_status)
                    and %s
                returning id),
            target as (
                update post_targets t set status = :target_status, attempts = :attempts,
                    provider_post_id = :provider_post_id, url = :url, error = :error::text::jsonb,
                    first_comment = :first_comment::text::jsonb,
                    completed_at = :completed_at, updated_at = :updated_at
                from post where t.post_id = post.id and t.account_id = :account_id and t.status = :read_target_status
                returning t.post_id),
            marked as (%s),
            finalized as (%s),
            held as (
                insert into profile_hold_releases (profile_id, post_id, workspace_id, mode)
                select h.profile_id, :post_id, :workspace_id, :mode
                from target, unnest(:held_profile_ids::text[]) as h(profile_id)
                on conflict do nothing)
            select count(*) as applied from target""".formatted(
                    ProcessedEvents.notProcessed(":event_id"),
                    ProcessedEvents.record("select :event_id from target"),
                    OutboxWriter.insertOnePerRowOf("target")));

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
        NamedStatement.Parameters parameters = APPLY.parameters()
                .set("post_id", post.id)
                .set("account_id", target.accountId)
                .set("updated_at", post.updatedAt)
                .set("status", post.status)
                .set("finalized_at", post.finalizedAt)
                .set("read_updated_at", outcome.readUpdatedAt())
                .set("read_status", outcome.readStatus())
                .set("read_target_status", outcome.readTargetStatus())
                .set("event_id", outcome.eventId())
                .set("target_status", target.status)
                .set("attempts", target.attempts)
                .set("provider_post_id", target.providerPostId)
                .set("url", target.url)
                .set("error", target.error)
                .set("first_comment", target.firstComment)
                .set("completed_at", target.completedAt)
                .set("held_profile_ids", outcome.holdsOf().toArray(String[]::new))
                .set("workspace_id", post.workspaceId)
                .set("mode", post.mode);
        return outbox.bind(parameters, outcome.finalized())
                .execute(pool)
                .map(rows -> rows.iterator().next().getLong("applied") > 0);
    }
}
