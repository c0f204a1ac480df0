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
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Delivery outcomes applied in one statement on the Vert.x pool, each against its post and target as they were read
 * without a lock: the target's outcome, the post's new state (final or not), the event's processed mark, and once
 * the post is final its {@code post.finalized} event and profile-hold releases. A single statement is its own
 * transaction: no BEGIN and COMMIT round trips, no Hibernate flush; and one statement serves a whole poll of
 * outcomes, one per post.
 */
@ApplicationScoped
public class TargetOutcomeStatements {
    /**
     * The posts still as read are locked first, in id order ({@code locked}), so two statements sharing posts wait on
     * each other instead of deadlocking; each outcome's row of {@code item} is then written or not on its own.
     */
    private static final NamedStatement APPLY_ALL = NamedStatement.of("""
            with item as (
                select * from unnest(:post_ids::text[], :account_ids::text[], :updated_at::timestamptz[],
                        :statuses::text[], :finalized_at::timestamptz[], :read_updated_at::timestamptz[],
                        :read_statuses::text[], :read_target_statuses::text[], :event_ids::text[],
                        :target_statuses::text[], :attempts::int[], :provider_post_ids::text[], :urls::text[],
                        :errors::text[], :first_comments::text[], :completed_at::timestamptz[],
                        :workspace_ids::text[], :modes::text[], :finalized_ids::text[])
                    with ordinality as i(post_id, account_id, updated_at, status, finalized_at, read_updated_at,
                        read_status, read_target_status, event_id, target_status, attempts, provider_post_id, url,
                        error, first_comment, completed_at, workspace_id, mode, finalized_id, position)
                where %s),
            locked as materialized (
                select p.id from posts p join item i on p.id = i.post_id
                where p.updated_at = i.read_updated_at and p.status = i.read_status
                order by p.id
                for update of p),
            post as (
                update posts p set updated_at = i.updated_at, status = i.status, finalized_at = i.finalized_at
                from item i join locked l on l.id = i.post_id
                where p.id = i.post_id and p.updated_at = i.read_updated_at and p.status = i.read_status
                    and exists (select 1 from post_targets t
                        where t.post_id = i.post_id and t.account_id = i.account_id
                            and t.status = i.read_target_status)
                returning i.position),
            target as (
                update post_targets t set status = i.target_status, attempts = i.attempts,
                    provider_post_id = i.provider_post_id, url = i.url, error = i.error::jsonb,
                    first_comment = i.first_comment::jsonb, completed_at = i.completed_at, updated_at = i.updated_at
                from item i join post using (position)
                where t.post_id = i.post_id and t.account_id = i.account_id and t.status = i.read_target_status
                returning i.position, i.post_id, i.event_id, i.finalized_id, i.workspace_id, i.mode),
            marked as (%s),
            finalized as (%s),
            held as (
                insert into profile_hold_releases (profile_id, post_id, workspace_id, mode)
                select h.profile_id, t.post_id, t.workspace_id, t.mode
                from target t
                join unnest(:held_positions::bigint[], :held_profile_ids::text[]) as h(position, profile_id)
                    using (position)
                on conflict do nothing)
            select position from target""".formatted(
                    ProcessedEvents.notProcessed("i.event_id"),
                    ProcessedEvents.record("select event_id from target"),
                    OutboxWriter.insertAllWhen("e.event_id in (select finalized_id from target)")));

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
     * Writes each outcome whose post is still as read and whose event was not applied before, answering, per
     * outcome in order, whether it was written; one not written changed nothing. At most one outcome per post: two
     * of one post would both be judged against the same read.
     */
    public Uni<List<Boolean>> applyAll(List<Outcome> outcomes) {
        int count = outcomes.size();
        if (outcomes.stream().map(outcome -> outcome.post().id).distinct().count() != count) {
            throw new IllegalArgumentException("at most one outcome per post in one statement");
        }
        String[] postIds = new String[count];
        String[] accountIds = new String[count];
        Instant[] updatedAt = new Instant[count];
        String[] statuses = new String[count];
        Instant[] finalizedAt = new Instant[count];
        Instant[] readUpdatedAt = new Instant[count];
        String[] readStatuses = new String[count];
        String[] readTargetStatuses = new String[count];
        String[] eventIds = new String[count];
        String[] targetStatuses = new String[count];
        Integer[] attempts = new Integer[count];
        String[] providerPostIds = new String[count];
        String[] urls = new String[count];
        String[] errors = new String[count];
        String[] firstComments = new String[count];
        Instant[] completedAt = new Instant[count];
        String[] workspaceIds = new String[count];
        String[] modes = new String[count];
        String[] finalizedIds = new String[count];
        List<Long> heldPositions = new ArrayList<>();
        List<String> heldProfileIds = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Outcome outcome = outcomes.get(i);
            PostEntity post = outcome.post();
            PostTargetEntity target = outcome.target();
            postIds[i] = post.id;
            accountIds[i] = target.accountId;
            updatedAt[i] = post.updatedAt;
            statuses[i] = post.status;
            finalizedAt[i] = post.finalizedAt;
            readUpdatedAt[i] = outcome.readUpdatedAt();
            readStatuses[i] = outcome.readStatus();
            readTargetStatuses[i] = outcome.readTargetStatus();
            eventIds[i] = outcome.eventId();
            targetStatuses[i] = target.status;
            attempts[i] = target.attempts;
            providerPostIds[i] = target.providerPostId;
            urls[i] = target.url;
            errors[i] = target.error;
            firstComments[i] = target.firstComment;
            completedAt[i] = target.completedAt;
            workspaceIds[i] = post.workspaceId;
            modes[i] = post.mode;
            finalizedIds[i] =
                    outcome.finalized() == null ? null : outcome.finalized().eventId();
            for (String profileId : outcome.holdsOf()) {
                heldPositions.add(i + 1L);
                heldProfileIds.add(profileId);
            }
        }
        NamedStatement.Parameters parameters = APPLY_ALL
                .parameters()
                .set("post_ids", postIds)
                .set("account_ids", accountIds)
                .set("updated_at", updatedAt)
                .set("statuses", statuses)
                .set("finalized_at", finalizedAt)
                .set("read_updated_at", readUpdatedAt)
                .set("read_statuses", readStatuses)
                .set("read_target_statuses", readTargetStatuses)
                .set("event_ids", eventIds)
                .set("target_statuses", targetStatuses)
                .set("attempts", attempts)
                .set("provider_post_ids", providerPostIds)
                .set("urls", urls)
                .set("errors", errors)
                .set("first_comments", firstComments)
                .set("completed_at", completedAt)
                .set("workspace_ids", workspaceIds)
                .set("modes", modes)
                .set("finalized_ids", finalizedIds)
                .set("held_positions", heldPositions.toArray(Long[]::new))
                .set("held_profile_ids", heldProfileIds.toArray(String[]::new));
        List<OutboxWriter.Entry> finalized = outcomes.stream()
                .map(Outcome::finalized)
                .filter(Objects::nonNull)
                .toList();
        return outbox.bindAll(parameters, finalized)
                .execute(pool)
                .map(rows -> NamedStatement.answersByPosition(rows, count, row -> true, false));
    }
}
