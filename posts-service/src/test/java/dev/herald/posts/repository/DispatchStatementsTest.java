package dev.herald.posts.repository;

import static dev.herald.posts.support.PostsTestSupport.count;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.common.events.Topics;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.common.outbox.OutboxWriter;
import dev.herald.common.wire.Post;
import dev.herald.common.wire.PostTarget;
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
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
@WithTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = PostsTestSupport.DATABASE),
        scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakeUpstreams.class, scope = TestResourceScope.MATCHING_RESOURCES)
class DispatchStatementsTest {
    @Inject
    PostRepository posts;

    @Inject
    DispatchStatements statements;

    private final String workspace = ResourceIds.newId(IdPrefix.WORKSPACE);

    private Connection lockHolder;

    @AfterEach
    void releaseLock() throws Exception {
        if (lockHolder != null) {
            lockHolder.rollback();
            lockHolder.close();
        }
    }

    /** A queued post with two queued targets, due in an hour: the running dispatcher leaves it alone. */
    private String queuedPost() throws Exception {
        String post = ResourceIds.newId(IdPrefix.POST);
        PostsTestSupport.execute("""
                insert into posts (id, workspace_id, mode, text, due_at, status, created_at, updated_at)
                values (?, ?, 'test', 'Doors open at 9', now() + interval '1 hour', 'queued', now(), now())""", post, workspace);
        PostsTestSupport.insertTarget(post, 0, "acc_1", "linkedin", PostTarget.QUEUED, null, 0);
        PostsTestSupport.insertTarget(post, 1, "acc_2", "linkedin", PostTarget.QUEUED, null, 0);
        return post;
    }

    private static DispatchStatements.Handover handover(String post, Instant readUpdatedAt) {
        String eventId = ResourceIds.newId(IdPrefix.EVENT);
        return new DispatchStatements.Handover(
                post,
                readUpdatedAt,
                new OutboxWriter.Entry(
                        eventId, Topics.POST_ACCEPTED, post, Map.of("type", "post.accepted", "post", post), null));
    }

    private static long status(String post, String status) throws Exception {
        return count("select count(*) from posts where id = ? and status = ?", post, status);
    }

    private static long targets(String post, String status) throws Exception {
        return count("select count(*) from post_targets where post_id = ? and status = ?", post, status);
    }

    private static long accepted(String post) throws Exception {
        return count("select count(*) from outbox where message_key = ? and topic = ?", post, Topics.POST_ACCEPTED);
    }

    /** Another transaction (a cancellation, another replica's dispatcher) locks the post until the test ends. */
    private void holdLockOn(String post) throws Exception {
        lockHolder = RealInfrastructure.connect(PostsTestSupport.DATABASE);
        lockHolder.setAutoCommit(false);
        try (PreparedStatement statement =
                lockHolder.prepareStatement("select id from posts where id = ? for update")) {
            statement.setString(1, post);
            statement.executeQuery().close();
        }
    }

    @Test
    @RunOnVertxContext
    void oneStatementHandsOverEachPostStillQueuedAsReadAndSkipsOnesHeldElsewhere(UniAsserter asserter)
            throws Exception {
        String asRead = queuedPost();
        String canceled = queuedPost();
        String touched = queuedPost();
        String held = queuedPost();
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        Instant[] read = new Instant[4];
        asserter.execute(() -> Panache.withSession(
                        () -> posts.findAllWithTargets(List.of(asRead, canceled, touched, held)))
                .invoke(found -> {
                    List<String> ids = List.of(asRead, canceled, touched, held);
                    for (int i = 0; i < ids.size(); i++) {
                        read[i] = found.get(ids.get(i)).post().updatedAt;
                    }
                }));
        asserter.execute(DatabaseCheck.of(() -> {
            // Since the read: one post canceled, one changed and still queued, one locked by another transaction.
            PostsTestSupport.execute(
                    "update posts set status = 'canceled', updated_at = clock_timestamp() where id = ?", canceled);
            PostsTestSupport.execute("update posts set updated_at = clock_timestamp() where id = ?", touched);
            holdLockOn(held);
        }));
        asserter.assertThat(
                () -> statements.handOverAll(
                        List.of(
                                handover(asRead, read[0]),
                                handover(canceled, read[1]),
                                handover(touched, read[2]),
                                handover(held, read[3])),
                        now),
                // Answered while the lock is still held: a held post is skipped, not waited for.
                written -> assertThat(written).containsExactly(true, false, false, false));
        asserter.execute(DatabaseCheck.of(() -> {
            assertThat(count(
                            "select count(*) from posts where id = ? and status = 'publishing' and dispatched_at = ?"
                                    + " and updated_at = ?",
                            asRead,
                            java.sql.Timestamp.from(now),
                            java.sql.Timestamp.from(now)))
                    .isEqualTo(1);
            assertThat(targets(asRead, PostTarget.PUBLISHING)).isEqualTo(2);
            assertThat(accepted(asRead)).isEqualTo(1);
            assertThat(status(canceled, Post.CANCELED)).isEqualTo(1);
            for (String left : List.of(touched, held)) {
                assertThat(status(left, Post.QUEUED)).isEqualTo(1);
            }
            for (String left : List.of(canceled, touched, held)) {
                assertThat(targets(left, PostTarget.QUEUED)).isEqualTo(2);
                assertThat(accepted(left)).isZero();
                assertThat(count("select count(*) from posts where id = ? and dispatched_at is not null", left))
                        .isZero();
            }
        }));
    }
}
