package dev.herald.posts.repository;

import static dev.herald.posts.support.PostsTestSupport.count;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.common.outbox.OutboxWriter;
import dev.herald.common.wire.Post;
import dev.herald.common.wire.PostTarget;
import dev.herald.posts.model.PostTargetEntity;
import dev.herald.posts.support.FakeUpstreams;
import dev.herald.posts.support.PostsTestSupport;
import dev.herald.testing.DatabaseCheck;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.vertx.RunOnVertxContext;
import io.quarkus.test.vertx.UniAsserter;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

@QuarkusTest
@WithTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = PostsTestSupport.DATABASE),
        scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakeUpstreams.class, scope = TestResourceScope.MATCHING_RESOURCES)
class TargetOutcomeStatementsTest {
    @Inject
    PostRepository posts;

    @Inject
    TargetOutcomeStatements statements;

    private final String workspace = ResourceIds.newId(IdPrefix.WORKSPACE);

    /**
     * Reads the post and works out {@code account}'s outcome as the finalization does, claiming it was read with the
     * post at {@code readUpdatedAt} (null: as read now); {@code finalStatus} non-null makes the post final.
     */
    private Uni<TargetOutcomeStatements.Outcome> outcome(
            String post, Instant readUpdatedAt, String account, String status, String eventId, String finalStatus) {
        return read(post).map(read -> {
            PostTargetEntity target = read.targets().stream()
                    .filter(row -> row.accountId.equals(account))
                    .findFirst()
                    .orElseThrow();
            Instant seen = readUpdatedAt != null ? readUpdatedAt : read.post().updatedAt;
            String readStatus = read.post().status;
            String readTargetStatus = target.status;
            Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
            target.status = status;
            target.attempts = 1;
            target.providerPostId = PostTarget.PUBLISHED.equals(status) ? "li_" + account : null;
            target.completedAt = now;
            target.updatedAt = now;
            read.post().updatedAt = now;
            OutboxWriter.Entry finalized = null;
            List<String> holds = List.of();
            if (finalStatus != null) {
                read.post().status = finalStatus;
                read.post().finalizedAt = now;
                finalized = new OutboxWriter.Entry(
                        ResourceIds.newId(IdPrefix.EVENT),
                        "post.finalized",
                        post,
                        Map.of("type", "post." + finalStatus),
                        null);
                holds = List.of("prf_" + post);
            }
            return new TargetOutcomeStatements.Outcome(
                    read.post(), seen, readStatus, target, readTargetStatus, eventId, finalized, holds);
        });
    }

    /** The same outcome, applied alone. */
    private Uni<Boolean> apply(
            String post, Instant readUpdatedAt, String account, String status, String eventId, String finalStatus) {
        return outcome(post, readUpdatedAt, account, status, eventId, finalStatus)
                .flatMap(outcome -> statements.applyAll(List.of(outcome)))
                .map(applied -> applied.get(0));
    }

    private Uni<PostRepository.WithTargets> read(String post) {
        return Panache.withSession(() -> posts.findAllWithTargets(List.of(post)))
                .map(found -> found.get(post));
    }

    private static long targets(String post, String status) throws Exception {
        return count("select count(*) from post_targets where post_id = ? and status = ?", post, status);
    }

    @Test
    @RunOnVertxContext
    void anOutcomeIsWrittenWholeWhileThePostIsAsReadAndNotAtAllOnceItChanged(UniAsserter asserter) throws Exception {
        String post = PostsTestSupport.insertPost(workspace, "test", Post.PUBLISHING);
        PostsTestSupport.insertTarget(post, 0, "acc_1", "linkedin", PostTarget.PUBLISHING, null, 0);
        PostsTestSupport.insertTarget(post, 1, "acc_2", "linkedin", PostTarget.PUBLISHING, null, 0);
        Instant[] firstRead = new Instant[1];
        asserter.assertThat(() -> read(post), read -> {
            assertThat(read.post().id).isEqualTo(post);
            assertThat(read.targets()).extracting(target -> target.accountId).containsExactly("acc_1", "acc_2");
            firstRead[0] = read.post().updatedAt;
        });
        String published = ResourceIds.newId(IdPrefix.EVENT);
        asserter.assertThat(
                () -> apply(post, null, "acc_1", PostTarget.PUBLISHED, published, null),
                applied -> assertThat(applied).isTrue());
        asserter.execute(DatabaseCheck.of(() -> {
            assertThat(targets(post, PostTarget.PUBLISHED)).isEqualTo(1);
            assertThat(count(
                            "select count(*) from posts where id = ? and status = 'publishing' and updated_at > ?",
                            post,
                            java.sql.Timestamp.from(firstRead[0])))
                    .isEqualTo(1);
            assertThat(count("select count(*) from processed_events where event_id = ?", published))
                    .isEqualTo(1);
            assertThat(count("select count(*) from outbox where message_key = ?", post))
                    .isZero();
        }));

        // The other target's outcome worked out from the first read: the post moved since, so nothing is written.
        String failed = ResourceIds.newId(IdPrefix.EVENT);
        asserter.assertThat(
                () -> apply(post, firstRead[0], "acc_2", PostTarget.FAILED, failed, Post.PARTIALLY_FAILED),
                applied -> assertThat(applied).isFalse());
        // The first event again, from a fresh read: it was applied before.
        asserter.assertThat(
                () -> apply(post, null, "acc_2", PostTarget.FAILED, published, Post.PARTIALLY_FAILED),
                applied -> assertThat(applied).isFalse());
        asserter.execute(DatabaseCheck.of(() -> {
            assertThat(targets(post, PostTarget.PUBLISHING)).isEqualTo(1);
            assertThat(count("select count(*) from processed_events where event_id = ?", failed))
                    .isZero();
            assertThat(count("select count(*) from outbox where message_key = ?", post))
                    .isZero();
            assertThat(count("select count(*) from profile_hold_releases where post_id = ?", post))
                    .isZero();
        }));

        // From a fresh read it applies, and the post becomes final with its event and hold release.
        asserter.assertThat(
                () -> apply(post, null, "acc_2", PostTarget.FAILED, failed, Post.PARTIALLY_FAILED),
                applied -> assertThat(applied).isTrue());
        asserter.execute(DatabaseCheck.of(() -> {
            assertThat(targets(post, PostTarget.FAILED)).isEqualTo(1);
            assertThat(count(
                            "select count(*) from posts where id = ? and status = 'partially_failed' and finalized_at is not null",
                            post))
                    .isEqualTo(1);
            assertThat(count(
                            "select count(*) from outbox where message_key = ? and payload->>'type' = 'post.partially_failed'",
                            post))
                    .isEqualTo(1);
            assertThat(count(
                            "select count(*) from profile_hold_releases where post_id = ? and profile_id = ?",
                            post,
                            "prf_" + post))
                    .isEqualTo(1);
        }));
    }

    @Test
    @RunOnVertxContext
    void oneStatementWritesEachOutcomeWhosePostIsAsReadAndAnswersWhichItWrote(UniAsserter asserter) throws Exception {
        String finalized = PostsTestSupport.insertPost(workspace, "test", Post.PUBLISHING);
        PostsTestSupport.insertTarget(finalized, 0, "acc_1", "linkedin", PostTarget.PUBLISHING, null, 0);
        String stillPublishing = PostsTestSupport.insertPost(workspace, "test", Post.PUBLISHING);
        PostsTestSupport.insertTarget(stillPublishing, 0, "acc_1", "linkedin", PostTarget.PUBLISHING, null, 0);
        PostsTestSupport.insertTarget(stillPublishing, 1, "acc_2", "linkedin", PostTarget.PUBLISHING, null, 0);
        String moved = PostsTestSupport.insertPost(workspace, "test", Post.PUBLISHING);
        PostsTestSupport.insertTarget(moved, 0, "acc_1", "linkedin", PostTarget.PUBLISHING, null, 0);
        String applied = PostsTestSupport.insertPost(workspace, "test", Post.PUBLISHING);
        PostsTestSupport.insertTarget(applied, 0, "acc_1", "linkedin", PostTarget.PUBLISHING, null, 0);
        String appliedBefore = ResourceIds.newId(IdPrefix.EVENT);
        PostsTestSupport.execute("insert into processed_events (event_id) values (?)", appliedBefore);
        Instant longAgo = Instant.parse("2026-01-01T00:00:00Z");
        String published = ResourceIds.newId(IdPrefix.EVENT);
        String movedOutcome = ResourceIds.newId(IdPrefix.EVENT);
        String failed = ResourceIds.newId(IdPrefix.EVENT);

        asserter.assertThat(
                // Read one after another: each read has its own session.
                () -> outcome(finalized, null, "acc_1", PostTarget.PUBLISHED, published, Post.PUBLISHED)
                        .flatMap(first -> outcome(moved, longAgo, "acc_1", PostTarget.FAILED, movedOutcome, Post.FAILED)
                                .flatMap(second -> outcome(
                                                stillPublishing, null, "acc_2", PostTarget.FAILED, failed, null)
                                        .flatMap(third -> outcome(
                                                        applied,
                                                        null,
                                                        "acc_1",
                                                        PostTarget.PUBLISHED,
                                                        appliedBefore,
                                                        Post.PUBLISHED)
                                                .map(fourth -> List.of(first, second, third, fourth)))))
                        .flatMap(statements::applyAll),
                written -> assertThat(written).containsExactly(true, false, true, false));
        asserter.execute(DatabaseCheck.of(() -> {
            assertThat(targets(finalized, PostTarget.PUBLISHED)).isEqualTo(1);
            assertThat(count("select count(*) from posts where id = ? and status = 'published'", finalized))
                    .isEqualTo(1);
            assertThat(count("select count(*) from outbox where message_key = ?", finalized))
                    .isEqualTo(1);
            assertThat(count("select count(*) from profile_hold_releases where post_id = ?", finalized))
                    .isEqualTo(1);
            assertThat(targets(stillPublishing, PostTarget.FAILED)).isEqualTo(1);
            assertThat(targets(stillPublishing, PostTarget.PUBLISHING)).isEqualTo(1);
            assertThat(count("select count(*) from posts where id = ? and status = 'publishing'", stillPublishing))
                    .isEqualTo(1);
            assertThat(count("select count(*) from profile_hold_releases where post_id = ?", stillPublishing))
                    .isZero();
            for (String unchanged : List.of(moved, applied)) {
                assertThat(targets(unchanged, PostTarget.PUBLISHING)).isEqualTo(1);
                assertThat(count("select count(*) from posts where id = ? and status = 'publishing'", unchanged))
                        .isEqualTo(1);
                assertThat(count("select count(*) from outbox where message_key = ?", unchanged))
                        .isZero();
                assertThat(count("select count(*) from profile_hold_releases where post_id = ?", unchanged))
                        .isZero();
            }
            assertThat(count("select count(*) from processed_events where event_id in (?, ?)", published, failed))
                    .isEqualTo(2);
            assertThat(count("select count(*) from processed_events where event_id = ?", movedOutcome))
                    .isZero();
        }));
    }
}
