package dev.herald.posts.repository;

import static dev.herald.posts.support.PostsTestSupport.count;
import static dev.herald.posts.support.PostsTestSupport.execute;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.posts.support.FakeUpstreams;
import dev.herald.posts.support.PostsTestSupport;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Decision 224's two interleavings, each forced in the database: an acceptance statement that waits for a fence's lock
 * sees the fence, and a fence that waits for an acceptance's lock counts its post. A JDBC transaction holds each
 * statement at the point where the other must meet it (a row it needs, locked), and the test goes on once PostgreSQL
 * shows the other statement waiting for its lock. Checked to fail with the fault planted: {@code account_fenced}
 * declared {@code stable} (its look at the fences then uses the statement's snapshot, taken before the wait) commits the
 * post in the first test; without its {@code pg_advisory_xact_lock_shared} the fence counts no post in the second.
 */
@QuarkusTest
@WithTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = PostsTestSupport.DATABASE),
        scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakeUpstreams.class, scope = TestResourceScope.MATCHING_RESOURCES)
class AccountFenceInterleavingTest {
    private static final Duration PATIENCE = Duration.ofSeconds(20);

    @Inject
    AcceptanceStatements statements;

    @Inject
    AccountFenceStatements fences;

    private ClaimedAcceptances acceptances;

    @BeforeEach
    void newWorkspace() {
        acceptances = new ClaimedAcceptances(statements, fences);
    }

    @Test
    void anAcceptanceWaitingForAFenceSeesItOnceTheFenceCommits() throws Exception {
        String post = ResourceIds.newId(IdPrefix.POST);
        String fence = "fence-" + post;
        acceptances.claimed("key-waits", post, false);
        try (Connection holder = RealInfrastructure.connect(PostsTestSupport.DATABASE)) {
            holder.setAutoCommit(false);
            // The fence's own row, uncommitted: the fence takes its lock, then waits here to insert its row.
            run(holder, """
                    insert into account_fences (id, workspace_id, mode, account_id, created_at, expires_at, in_force_until)
                    values (?, 'held', 'test', 'held', now(), now(), now())""", fence);
            CompletableFuture<Long> fenced = acceptances
                    .fence(fence, acceptances.firstAccount, acceptances.now, acceptances.now.plusSeconds(30))
                    .subscribeAsCompletionStage();
            awaitWaiting("insert into account_fences", "transactionid");
            CompletableFuture<AcceptanceStatements.Outcome> accepted = acceptances
                    .commit("key-waits", post, ClaimedAcceptances.CLAIM, true)
                    .subscribeAsCompletionStage();
            // The acceptance began after the fence took its lock and before its row is committed.
            awaitWaiting("account_fenced", "advisory");
            holder.rollback();

            assertThat(fenced.get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isZero();
            assertThat(accepted.get(PATIENCE.toSeconds(), TimeUnit.SECONDS))
                    .isEqualTo(AcceptanceStatements.Outcome.FENCED);
        }
        ClaimedAcceptances.assertNothingWritten(post);
    }

    @Test
    void aFenceWaitingForAnAcceptanceCountsItsPost() throws Exception {
        String post = ResourceIds.newId(IdPrefix.POST);
        acceptances.claimed("key-first", post, false);
        try (Connection holder = RealInfrastructure.connect(PostsTestSupport.DATABASE)) {
            holder.setAutoCommit(false);
            // The acceptance looks for fences (finding none) holding the account's shared lock, then waits here.
            run(holder, "select 1 from unfinished_acceptances where post_id = ? for update", post);
            CompletableFuture<AcceptanceStatements.Outcome> accepted = acceptances
                    .commit("key-first", post, ClaimedAcceptances.CLAIM, true)
                    .subscribeAsCompletionStage();
            awaitWaiting("account_fenced", "transactionid");
            CompletableFuture<Long> fenced = acceptances
                    .fence("fence-" + post, acceptances.secondAccount, acceptances.now, acceptances.now.plusSeconds(30))
                    .subscribeAsCompletionStage();
            awaitWaiting("pg_advisory_xact_lock(", "advisory");
            holder.commit();

            assertThat(accepted.get(PATIENCE.toSeconds(), TimeUnit.SECONDS))
                    .isEqualTo(AcceptanceStatements.Outcome.COMMITTED);
            assertThat(fenced.get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isEqualTo(1);
        }
    }

    @Test
    void aFenceDoesNotCountAPostThatIsAlreadyFinal() throws Exception {
        // Published before the move: it keeps the profile it was published under (spec: historical posts keep their
        // association), so the move may go ahead.
        String post = ResourceIds.newId(IdPrefix.POST);
        acceptances.claimed("key-published", post, false);
        assertThat(acceptances
                        .commit("key-published", post, ClaimedAcceptances.CLAIM, true)
                        .await()
                        .atMost(PATIENCE))
                .isEqualTo(AcceptanceStatements.Outcome.COMMITTED);
        execute("update posts set status = 'published' where id = ?", post);
        assertThat(acceptances
                        .fence(
                                "fence-" + post,
                                acceptances.firstAccount,
                                acceptances.now,
                                acceptances.now.plusSeconds(30))
                        .await()
                        .atMost(PATIENCE))
                .isZero();
    }

    private static void run(Connection connection, String sql, Object... parameters) throws Exception {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            statement.execute();
        }
    }

    /** Until a statement containing {@code text} waits for a lock of the kind {@code lock} (pg_stat_activity's wait_event). */
    private static void awaitWaiting(String text, String lock) throws Exception {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (count(
                        "select count(*) from pg_stat_activity where wait_event_type = 'Lock' and wait_event = ? "
                                + "and query like '%' || ? || '%' and pid <> pg_backend_pid()",
                        lock, text)
                == 0) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no statement with \"" + text + "\" waits for a " + lock + " lock");
            }
            Thread.sleep(20);
        }
    }
}
