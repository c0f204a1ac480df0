package dev.herald.posts.repository;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.outbox.OutboxWriter;
import dev.herald.common.persistence.NamedStatement;
import dev.herald.common.wire.Post;
import dev.herald.common.wire.PostTarget;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;

/**
 * The dispatcher's handover of due posts in one statement on the Vert.x pool, each against its post as it was read
 * without a lock: the post and all its targets become {@code publishing} and its {@code post.accepted} is written. A
 * single statement is its own transaction, so a batch of due posts costs one read and one round trip, where a
 * Hibernate transaction cost a dozen (lock, targets, batched updates, outbox, commit): at the top of the hour those
 * round trips, on a busy machine, were what held 10,000 due posts back (bench/README.md, "Scheduled burst").
 */
@ApplicationScoped
public class DispatchStatements {
    /**
     * The posts still queued as read are locked in id order ({@code locked}), skipping any another transaction holds
     * (a cancellation, or another replica's dispatcher handing over the same head of the queue): those stay queued
     * for the next round. Every change of a post or its targets moves the post's {@code updated_at}, so a post
     * unchanged since the read has the targets the event was built from.
     */
    private static final NamedStatement HAND_OVER =
            NamedStatement.of("""
            with item as (
                select * from unnest(:post_ids::text[], :read_updated_at::timestamptz[])
                    with ordinality as i(post_id, read_updated_at, position)),
            locked as materialized (
                select p.id from posts p join item i on p.id = i.post_id
                where p.status = :queued and p.updated_at = i.read_updated_at
                order by p.id
                for update of p skip locked),
            post as (
                update posts p set status = :publishing, dispatched_at = :now, updated_at = :now
                from item i join locked l on l.id = i.post_id
                where p.id = i.post_id and p.status = :queued and p.updated_at = i.read_updated_at
                returning p.id, i.position),
            target as (
                update post_targets t set status = :target_publishing, updated_at = :now
                from post where t.post_id = post.id),
            accepted as (%s)
            select position from post""".formatted(OutboxWriter.insertAllWhen("e.message_key in (select id from post)")));

    private final Pool pool;
    private final OutboxWriter outbox;

    public DispatchStatements(Pool pool, ObjectMapper mapper) {
        this.pool = pool;
        this.outbox = new OutboxWriter(mapper);
    }

    /**
     * One post to hand over: its id, its {@code updated_at} as read, and its {@code post.accepted} (keyed by the post
     * id, built from the read with the post and its targets publishing).
     */
    public record Handover(String postId, Instant readUpdatedAt, OutboxWriter.Entry accepted) {
        public Handover {
            if (!postId.equals(accepted.key())) {
                throw new IllegalArgumentException("post.accepted of " + accepted.key() + " given for " + postId);
            }
        }
    }

    /**
     * Hands over, at {@code now}, each post still queued as read and not locked elsewhere, answering per handover in
     * order whether it was written; one not written changed nothing.
     */
    public Uni<List<Boolean>> handOverAll(List<Handover> handovers, Instant now) {
        int count = handovers.size();
        NamedStatement.Parameters parameters = HAND_OVER
                .parameters()
                .set("post_ids", handovers.stream().map(Handover::postId).toArray(String[]::new))
                .set(
                        "read_updated_at",
                        handovers.stream().map(Handover::readUpdatedAt).toArray(Instant[]::new))
                .set("queued", Post.QUEUED)
                .set("publishing", Post.PUBLISHING)
                .set("target_publishing", PostTarget.PUBLISHING)
                .set("now", now);
        return outbox.bindAll(
                        parameters, handovers.stream().map(Handover::accepted).toList())
                .execute(pool)
                .map(rows -> NamedStatement.answersByPosition(rows, count, row -> true, false));
    }
}
