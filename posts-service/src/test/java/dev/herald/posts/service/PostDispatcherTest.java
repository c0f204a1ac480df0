package dev.herald.posts.service;

import static dev.herald.posts.support.PostsTestSupport.count;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.common.events.Topics;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.posts.support.FakeUpstreams;
import dev.herald.posts.support.PostsTestSupport;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The running dispatcher against the database: a burst of posts due at one instant, with cancellations racing it. */
@QuarkusTest
@WithTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = PostsTestSupport.DATABASE),
        scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakeUpstreams.class, scope = TestResourceScope.MATCHING_RESOURCES)
class PostDispatcherTest {
    /** Three of the dispatcher's batches (500) at least, whatever the cancellations took first. */
    private static final int POSTS = 1_200;

    private final String workspace = ResourceIds.newId(IdPrefix.WORKSPACE);

    @Test
    void aBurstOfDuePostsIsHandedOverOnceEachWhileCancellationsRaceIt() throws Exception {
        Instant due = Instant.now().plusSeconds(2);
        String prefix = ResourceIds.newId(IdPrefix.POST);
        PostsTestSupport.execute("""
                insert into posts (id, workspace_id, mode, text, due_at, status, created_at, updated_at)
                select ? || '_' || n, ?, 'test', 'On the hour', ?, 'queued', now(), now()
                from generate_series(1, ?) n""", prefix, workspace, Timestamp.from(due), POSTS);
        PostsTestSupport.execute("""
                insert into post_targets (post_id, position, account_id, platform, account_username, reservation_id,
                                          status, attempts, updated_at)
                select p.id, k, 'acc_' || k, 'linkedin', 'brand', p.id || '-acc_' || k, 'queued', 0, now()
                from posts p cross join generate_series(0, 1) k where p.workspace_id = ?""", workspace);

        // Every twentieth post is canceled from just before its time on, as a customer's DELETE would: under the post's
        // lock, only while it is still queued. Some land before the handover and some after; which, the race decides.
        Thread.sleep(Math.max(0, Duration.between(Instant.now(), due).toMillis() - 30));
        List<String> canceled = new ArrayList<>();
        try (Connection connection = RealInfrastructure.connect(PostsTestSupport.DATABASE)) {
            connection.setAutoCommit(false);
            for (int n = 1; n <= POSTS; n += 20) {
                String post = prefix + "_" + n;
                if (cancel(connection, post)) {
                    canceled.add(post);
                }
                connection.commit();
            }
        }

        Instant deadline = Instant.now().plusSeconds(30);
        while (queued() > 0 && Instant.now().isBefore(deadline)) {
            Thread.sleep(100);
        }
        assertThat(queued()).isZero();
        assertThat(count("select count(*) from posts where workspace_id = ? and status = 'canceled'", workspace))
                .isEqualTo(canceled.size());
        for (String post : canceled) {
            assertThat(count("select count(*) from posts where id = ? and status = 'canceled'", post))
                    .isEqualTo(1);
        }
        // Each post handed over is publishing with both targets and exactly one post.accepted; a canceled one has none.
        assertThat(count("""
                        select count(*) from posts p where p.workspace_id = ? and p.status = 'publishing'
                            and p.dispatched_at is not null
                            and (select count(*) from post_targets t where t.post_id = p.id and t.status = 'publishing') = 2
                            and (select count(*) from outbox o where o.message_key = p.id and o.topic = ?) = 1""", workspace, Topics.POST_ACCEPTED)).isEqualTo(POSTS - canceled.size());
        assertThat(count("""
                        select count(*) from outbox o join posts p on p.id = o.message_key
                        where p.workspace_id = ? and p.status = 'canceled'""", workspace)).isZero();
        // In batches of at most 500, each batch's posts sharing its handover time.
        assertThat(count("""
                        select count(*) from (select dispatched_at from posts where workspace_id = ?
                            and status = 'publishing' group by dispatched_at having count(*) > 500) b""", workspace)).isZero();
        assertThat(count(
                        "select count(distinct dispatched_at) from posts where workspace_id = ? and status = 'publishing'",
                        workspace))
                .isGreaterThanOrEqualTo(3);
    }

    private long queued() throws Exception {
        return count("select count(*) from posts where workspace_id = ? and status = 'queued'", workspace);
    }

    /** Cancels the post if it is still queued; true when it was. */
    private static boolean cancel(Connection connection, String post) throws Exception {
        try (PreparedStatement update = connection.prepareStatement("""
                update posts set status = 'canceled', updated_at = clock_timestamp(), finalized_at = clock_timestamp()
                where id = ? and status = 'queued'""")) {
            update.setString(1, post);
            if (update.executeUpdate() == 0) {
                return false;
            }
        }
        try (PreparedStatement targets = connection.prepareStatement(
                "update post_targets set status = 'canceled', updated_at = clock_timestamp() where post_id = ?")) {
            targets.setString(1, post);
            targets.executeUpdate();
        }
        return true;
    }
}
