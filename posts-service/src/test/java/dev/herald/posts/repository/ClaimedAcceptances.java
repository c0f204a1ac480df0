package dev.herald.posts.repository;

import static dev.herald.posts.support.PostsTestSupport.count;
import static dev.herald.posts.support.PostsTestSupport.execute;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.common.auth.Mode;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.common.outbox.OutboxWriter;
import dev.herald.common.wire.Post;
import dev.herald.common.wire.PostTarget;
import dev.herald.posts.model.PostEntity;
import dev.herald.posts.model.PostTargetEntity;
import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

/**
 * Acceptances of one workspace's posts to two accounts of their own, at the statements' level: the key claimed and
 * what the request took recorded, as {@code POST /posts} does before it commits, then {@link AcceptanceStatements}'s
 * commit. Fences are per account, so one test's fences never concern another's posts.
 */
final class ClaimedAcceptances {
    static final String CLAIM = "claim-1";

    final String workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
    final String firstAccount = ResourceIds.newId(IdPrefix.ACCOUNT);
    final String secondAccount = ResourceIds.newId(IdPrefix.ACCOUNT);
    final Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);

    private final AcceptanceStatements statements;
    private final AccountFenceStatements fences;

    ClaimedAcceptances(AcceptanceStatements statements, AccountFenceStatements fences) {
        this.statements = statements;
        this.fences = fences;
    }

    /** A request that claimed {@code key} for {@code post} and recorded what it is taking. */
    void claimed(String key, String post, boolean abandoned) throws Exception {
        execute("""
                insert into idempotency_keys (workspace_id, mode, key, fingerprint, state, claim_token, claimed_at, expires_at)
                values (?, 'test', ?, 'fp', 'in_flight', ?, now(), now() + interval '1 minute')""", workspace, key, CLAIM);
        execute("""
                insert into unfinished_acceptances (post_id, workspace_id, mode, idempotency_key, claim_token, reservation_ids,
                                                    profile_ids, started_at, abandoned)
                values (?, ?, 'test', ?, ?, array[?], array[]::text[], now(), ?)""", post, workspace, key, CLAIM, post + "-" + firstAccount, abandoned);
    }

    /** The post to both accounts, by a request that began a second ago. */
    Uni<AcceptanceStatements.Outcome> commit(String key, String post, String claimToken, boolean dueNow) {
        return commit(key, post, claimToken, dueNow, now.minusSeconds(1));
    }

    Uni<AcceptanceStatements.Outcome> commit(
            String key, String post, String claimToken, boolean dueNow, Instant since) {
        PostEntity entity = new PostEntity();
        entity.id = post;
        entity.workspaceId = workspace;
        entity.mode = "test";
        entity.text = "Doors open at 9";
        entity.dueAt = now;
        entity.platformOptions = "{\"linkedin\":{}}";
        entity.status = dueNow ? Post.PUBLISHING : Post.QUEUED;
        entity.createdAt = now;
        entity.updatedAt = now;
        entity.dispatchedAt = dueNow ? now : null;
        entity.scheduledAt = dueNow ? null : now.plusSeconds(3600);
        PostTargetEntity first = target(post, 0, firstAccount, dueNow);
        PostTargetEntity second = target(post, 1, secondAccount, dueNow);
        second.profileId = "prf_1";
        OutboxWriter.Entry handover = dueNow
                ? new OutboxWriter.Entry(
                        ResourceIds.newId(IdPrefix.EVENT), "post.accepted", post, Map.of("type", "post.accepted"), null)
                : null;
        return statements.commit(
                entity,
                List.of(first, second),
                Mode.TEST,
                new AcceptanceStatements.CompletedKey(
                        key, claimToken, "{\"data\":{\"id\":\"" + post + "\"}}", now.plusSeconds(86_400)),
                handover,
                since);
    }

    private PostTargetEntity target(String post, int position, String account, boolean dueNow) {
        PostTargetEntity target = new PostTargetEntity();
        target.postId = post;
        target.position = position;
        target.accountId = account;
        target.platform = "linkedin";
        target.accountUsername = "brand";
        target.reservationId = post + "-" + account;
        target.status = dueNow ? PostTarget.PUBLISHING : PostTarget.QUEUED;
        target.updatedAt = now;
        return target;
    }

    /** Fence {@code id} on the account, put up at {@code at}; the posts it found pending. */
    Uni<Long> fence(String id, String account, Instant at, Instant expiresAt) {
        return fences.fence(id, workspace, Mode.TEST, account, at, expiresAt);
    }

    static void assertNothingWritten(String post) throws Exception {
        assertThat(count("select count(*) from posts where id = ?", post)).isZero();
        assertThat(count("select count(*) from post_targets where post_id = ?", post))
                .isZero();
        assertThat(count("select count(*) from outbox where message_key = ?", post))
                .isZero();
    }
}
