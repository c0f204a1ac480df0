package dev.herald.posts.messaging;

import static dev.herald.posts.support.PostsTestSupport.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.herald.common.auth.Mode;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.common.wire.UsageReservation;
import dev.herald.posts.support.FakeUpstreams;
import dev.herald.posts.support.PostsTestSupport;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
@WithTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = PostsTestSupport.DATABASE),
        scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakeUpstreams.class, scope = TestResourceScope.MATCHING_RESOURCES)
class AbandonedAcceptanceJobTest {
    @Inject
    AbandonedAcceptanceJob job;

    private String workspace;

    @BeforeEach
    void newWorkspace() {
        FakeUpstreams.ensureStarted();
        workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
    }

    @AfterEach
    void noDelay() {
        FakeUpstreams.reserveDelayMillis = 0;
    }

    @Test
    void aRequestThatDiedAfterReservingGivesItsReservationsAndHoldsBack() throws Exception {
        // What a posts-service killed between the reservation and the commit leaves: the row written before the
        // reservation, the reservation, the profile hold and the Idempotency-Key still claimed.
        String post = ResourceIds.newId(IdPrefix.POST);
        String profile = ResourceIds.newId(IdPrefix.PROFILE);
        String account =
                FakeUpstreams.addAccount(workspace, "test", "linkedin", "user_" + post.substring(4, 10), profile);
        String reservation = UsageReservation.publicationId(post, account);
        String key = UUID.randomUUID().toString();
        FakeUpstreams.addReservation(workspace, "test", reservation);
        FakeUpstreams.HOLDS
                .computeIfAbsent(profile, id -> ConcurrentHashMap.newKeySet())
                .add(post);
        Instant started = Instant.now().minusSeconds(120);
        PostsTestSupport.execute("""
                insert into idempotency_keys (workspace_id, mode, key, fingerprint, state, claim_token, claimed_at, expires_at)
                values (?, 'test', ?, 'fingerprint', 'in_flight', 'dead-request', now(), now() + interval '1 hour')""", workspace, key);
        PostsTestSupport.execute(
                """
                insert into unfinished_acceptances
                    (post_id, workspace_id, mode, idempotency_key, claim_token, reservation_ids, profile_ids, started_at)
                values (?, ?, 'test', ?, 'dead-request', ?, ?, ?)""", post, workspace, key, new String[] {reservation}, new String[] {profile}, Timestamp.from(started));
        assertThat(FakeUpstreams.reserved(workspace, "test")).isEqualTo(1);

        // Younger than the cutoff: left alone (its request may still be running).
        assertThat(job.giveBackAbandoned(started).await().atMost(Duration.ofSeconds(30)))
                .isZero();
        assertThat(FakeUpstreams.reserved(workspace, "test")).isEqualTo(1);

        assertThat(job.giveBackAbandoned(Instant.now()).await().atMost(Duration.ofSeconds(30)))
                .isEqualTo(1);
        assertThat(FakeUpstreams.reserved(workspace, "test")).isZero();
        assertThat(PostsTestSupport.count("select count(*) from unfinished_acceptances where post_id = ?", post))
                .isZero();
        eventually(() -> !FakeUpstreams.holders(profile).contains(post));
        // The key is free again: the client's retry is accepted, not answered 409 for ever.
        as(workspace, Mode.TEST)
                .header("Idempotency-Key", key)
                .body("{\"text\":\"Again\",\"account_ids\":[\"" + account + "\"]}")
                .post("/posts")
                .then()
                .statusCode(202);
    }

    @Test
    void aRequestStillRunningWhenItsAcceptanceIsAbandonedCannotCommitItsPost() throws Exception {
        String account = FakeUpstreams.addAccount(workspace, "test", "linkedin", "user_slow", null);
        String key = UUID.randomUUID().toString();
        FakeUpstreams.reserveDelayMillis = 3000;
        CompletableFuture<Integer> answer = CompletableFuture.supplyAsync(() -> as(workspace, Mode.TEST)
                .header("Idempotency-Key", key)
                .body("{\"text\":\"Slow\",\"account_ids\":[\"" + account + "\"]}")
                .post("/posts")
                .then()
                .extract()
                .statusCode());
        eventually(() ->
                PostsTestSupport.count("select count(*) from unfinished_acceptances where workspace_id = ?", workspace)
                        == 1);

        // Abandoned while its reservation is still being made: the request must then refuse, not commit.
        job.giveBackAbandoned(Instant.now().plusSeconds(1)).await().atMost(Duration.ofSeconds(30));

        assertThat(answer.get()).isEqualTo(409);
        assertThat(PostsTestSupport.count("select count(*) from posts where workspace_id = ?", workspace))
                .isZero();
        assertThat(FakeUpstreams.reserved(workspace, "test")).isZero();
        assertThat(PostsTestSupport.count(
                        "select count(*) from unfinished_acceptances where workspace_id = ?", workspace))
                .isZero();
        FakeUpstreams.reserveDelayMillis = 0;
        as(workspace, Mode.TEST)
                .header("Idempotency-Key", key)
                .body("{\"text\":\"Slow\",\"account_ids\":[\"" + account + "\"]}")
                .post("/posts")
                .then()
                .statusCode(202)
                .body("data.status", equalTo("queued"));
    }

    private static void eventually(Callable<Boolean> condition) throws Exception {
        // 30 s: this class may run first, and a freshly started application's first request is slow on a busy machine.
        long deadline = System.currentTimeMillis() + 30_000;
        while (!condition.call()) {
            assertThat(System.currentTimeMillis())
                    .as("condition met within 30 s")
                    .isLessThan(deadline);
            Thread.sleep(50);
        }
    }
}
