package dev.herald.posts.repository;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.common.auth.Mode;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.posts.support.FakeUpstreams;
import dev.herald.posts.support.PostsTestSupport;
import dev.herald.testing.RealInfrastructure;
import dev.herald.testing.RepeatedLookupPlans;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.vertx.RunOnVertxContext;
import io.quarkus.test.vertx.UniAsserter;
import jakarta.inject.Inject;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.hibernate.reactive.mutiny.Mutiny;
import org.hibernate.stat.QueryStatistics;
import org.hibernate.stat.Statistics;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
@WithTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = PostsTestSupport.DATABASE),
        scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakeUpstreams.class, scope = TestResourceScope.MATCHING_RESOURCES)
class PostRepositoryTest {
    @Inject
    PostRepository posts;

    @Inject
    Mutiny.SessionFactory sessionFactory;

    private String workspace;
    /** A moment decades ahead, so the running dispatcher (which asks with the real time) never takes these posts. */
    private Instant now;

    @BeforeEach
    void newWorkspace() {
        workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
        now = Instant.parse("2090-01-01T00:00:00Z")
                .plus(ThreadLocalRandom.current().nextInt(1_000_000), ChronoUnit.MINUTES);
    }

    @Test
    @RunOnVertxContext
    void findDueReadsQueuedPostsWhoseTimeHasComeOldestFirstWithTheirTargetsInOrder(UniAsserter asserter)
            throws Exception {
        String older = queuedPost(now.minusSeconds(20), "queued");
        PostsTestSupport.insertTarget(older, 1, "acc_2", "linkedin", "queued", null, 0);
        PostsTestSupport.insertTarget(older, 0, "acc_1", "linkedin", "queued", null, 0);
        String newer = queuedPost(now.minusSeconds(10), "queued");
        PostsTestSupport.insertTarget(newer, 0, "acc_1", "linkedin", "queued", null, 0);
        String later = queuedPost(now.plusSeconds(1), "queued");
        PostsTestSupport.insertTarget(later, 0, "acc_1", "linkedin", "queued", null, 0);
        String publishing = queuedPost(now.minusSeconds(40), "publishing");
        PostsTestSupport.insertTarget(publishing, 0, "acc_1", "linkedin", "publishing", null, 0);

        asserter.assertThat(() -> Panache.withSession(() -> posts.findDue(now, 500)), due -> {
            List<PostRepository.WithTargets> ours = due.stream()
                    .filter(read -> read.post().workspaceId.equals(workspace))
                    .toList();
            assertThat(ours).extracting(read -> read.post().id).containsExactly(older, newer);
            assertThat(ours.get(0).targets())
                    .extracting(target -> target.accountId)
                    .containsExactly("acc_1", "acc_2");
            assertThat(ours.get(1).targets())
                    .extracting(target -> target.accountId)
                    .containsExactly("acc_1");
        });
    }

    @Test
    @RunOnVertxContext
    void findDueReusesOneQueryPlanHoweverOftenItRuns(UniAsserter asserter) {
        Statistics statistics = sessionFactory.getStatistics();
        statistics.setStatisticsEnabled(true);
        // This query's own statistics: the totals also count other queries (the dispatcher's, jobs') that run
        // meanwhile, which made this test fail now and then under load.
        QueryStatistics findDue = statistics.getQueryStatistics(PostRepository.DUE);
        long[] after = new long[2];
        asserter.execute(() -> Panache.withSession(() -> posts.findDue(now, 50)).invoke(() -> {
            after[0] = findDue.getPlanCacheMissCount();
            after[1] = findDue.getPlanCacheHitCount();
        }));
        for (int i = 0; i < 20; i++) {
            asserter.execute(() -> Panache.withSession(() -> posts.findDue(now, 50)));
        }
        asserter.execute(() -> {
            assertThat(findDue.getPlanCacheMissCount()).isEqualTo(after[0]);
            assertThat(findDue.getPlanCacheHitCount() - after[1]).isGreaterThanOrEqualTo(20);
        });
        asserter.execute(() -> statistics.setStatisticsEnabled(false));
    }

    @Test
    @RunOnVertxContext
    void aPostIsReadWithAGenericPlanOnceItsConnectionHasRunItAFewTimes(UniAsserter asserter) throws Exception {
        // GET /posts/{id}, which clients poll until a post is final.
        String post = queuedPost(now.plusSeconds(60), "queued");
        asserter.assertThat(
                () -> Panache.withSession(() -> RepeatedLookupPlans.customPlans(
                        () -> posts.findInTenant(workspace, Mode.TEST, post), 10, "from posts")),
                custom -> assertThat(custom)
                        .singleElement()
                        .satisfies(plans -> assertThat(plans).isLessThanOrEqualTo(5L)));
    }

    @Test
    @RunOnVertxContext
    void aPostsMediaArrayIsReadBackAsItsJsonText(UniAsserter asserter) throws Exception {
        // jsonb holding an array: the reactive client answers it as a JsonArray, which Hibernate's JSON mapping cannot
        // read.
        String post = queuedPost(now.plusSeconds(60), "queued");
        PostsTestSupport.execute(
                "update posts set media = ?::jsonb where id = ?",
                "[{\"url\":\"https://cdn.example.com/a.jpg\",\"type\":\"image\"},"
                        + "{\"url\":\"https://cdn.example.com/b.jpg\",\"type\":\"image\"}]",
                post);
        asserter.assertThat(
                () -> Panache.withSession(() -> posts.findInTenant(workspace, Mode.TEST, post)),
                found -> assertThat(found.media)
                        .isEqualTo("[{\"url\": \"https://cdn.example.com/a.jpg\", \"type\": \"image\"}, "
                                + "{\"url\": \"https://cdn.example.com/b.jpg\", \"type\": \"image\"}]"));
    }

    private String queuedPost(Instant dueAt, String status) throws Exception {
        String post = ResourceIds.newId(IdPrefix.POST);
        PostsTestSupport.execute("""
                insert into posts (id, workspace_id, mode, text, due_at, status, created_at, updated_at)
                values (?, ?, 'test', 'Doors open at 9', ?, ?, now(), now())""", post, workspace, Timestamp.from(dueAt), status);
        return post;
    }
}
