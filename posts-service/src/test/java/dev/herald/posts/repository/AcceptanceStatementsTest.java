package dev.herald.posts.repository;

import static dev.herald.posts.support.PostsTestSupport.count;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.common.auth.Mode;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.posts.support.FakeUpstreams;
import dev.herald.posts.support.PostsTestSupport;
import dev.herald.testing.DatabaseCheck;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.vertx.RunOnVertxContext;
import io.quarkus.test.vertx.UniAsserter;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
@WithTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = PostsTestSupport.DATABASE),
        scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakeUpstreams.class, scope = TestResourceScope.MATCHING_RESOURCES)
class AcceptanceStatementsTest {
    private static final String CLAIM = ClaimedAcceptances.CLAIM;

    @Inject
    AcceptanceStatements statements;

    @Inject
    AccountFenceStatements fences;

    private ClaimedAcceptances acceptances;
    private String workspace;
    private String firstAccount;
    private String secondAccount;
    private Instant now;

    @BeforeEach
    void newWorkspace() {
        acceptances = new ClaimedAcceptances(statements, fences);
        workspace = acceptances.workspace;
        firstAccount = acceptances.firstAccount;
        secondAccount = acceptances.secondAccount;
        now = acceptances.now;
    }

    private void claimed(String key, String post, boolean abandoned) throws Exception {
        acceptances.claimed(key, post, abandoned);
    }

    private Uni<AcceptanceStatements.Outcome> commit(String key, String post, String claimToken, boolean dueNow) {
        return acceptances.commit(key, post, claimToken, dueNow);
    }

    private Uni<AcceptanceStatements.Outcome> commit(
            String key, String post, String claimToken, boolean dueNow, Instant since) {
        return acceptances.commit(key, post, claimToken, dueNow, since);
    }

    @Test
    @RunOnVertxContext
    void anAcceptedPostIsCommittedWholeWithItsStoredAnswer(UniAsserter asserter) throws Exception {
        String post = ResourceIds.newId(IdPrefix.POST);
        claimed("key-due", post, false);
        asserter.assertThat(
                () -> commit("key-due", post, CLAIM, true),
                outcome -> assertThat(outcome).isEqualTo(AcceptanceStatements.Outcome.COMMITTED));
        asserter.execute(DatabaseCheck.of(() -> {
            assertThat(count(
                            "select count(*) from posts where id = ? and status = 'publishing' and dispatched_at is not null",
                            post))
                    .isEqualTo(1);
            assertThat(count(
                            "select count(*) from post_targets where post_id = ? and status = 'publishing' and attempts = 0",
                            post))
                    .isEqualTo(2);
            assertThat(count(
                            "select count(*) from post_targets where post_id = ? and account_id = ? and profile_id = 'prf_1' "
                                    + "and position = 1 and reservation_id = ?",
                            post,
                            secondAccount,
                            post + "-" + secondAccount))
                    .isEqualTo(1);
            assertThat(count(
                            "select count(*) from outbox where message_key = ? and payload->>'type' = 'post.accepted'",
                            post))
                    .isEqualTo(1);
            assertThat(count(
                            "select count(*) from idempotency_keys where workspace_id = ? and key = 'key-due' and state = 'completed' "
                                    + "and post_id = ? and response like '{\"data\"%'",
                            workspace, post))
                    .isEqualTo(1);
            assertThat(count("select count(*) from unfinished_acceptances where post_id = ?", post))
                    .isZero();
        }));

        // A scheduled post: no event, the dispatcher hands it over when due.
        String scheduled = ResourceIds.newId(IdPrefix.POST);
        asserter.execute(DatabaseCheck.of(() -> claimed("key-later", scheduled, false)));
        asserter.assertThat(
                () -> commit("key-later", scheduled, CLAIM, false),
                outcome -> assertThat(outcome).isEqualTo(AcceptanceStatements.Outcome.COMMITTED));
        asserter.execute(DatabaseCheck.of(() -> {
            assertThat(count(
                            "select count(*) from posts where id = ? and status = 'queued' and dispatched_at is null",
                            scheduled))
                    .isEqualTo(1);
            assertThat(count("select count(*) from outbox where message_key = ?", scheduled))
                    .isZero();
        }));
    }

    @Test
    @RunOnVertxContext
    void nothingIsWrittenOnceTheClaimIsLostOrTheAcceptanceWasAbandoned(UniAsserter asserter) throws Exception {
        String taken = ResourceIds.newId(IdPrefix.POST);
        String abandoned = ResourceIds.newId(IdPrefix.POST);
        claimed("key-taken", taken, false);
        claimed("key-abandoned", abandoned, true);
        // Another request took the key over after this claim expired: its token is not ours.
        asserter.assertThat(
                () -> commit("key-taken", taken, "claim-of-an-earlier-attempt", true),
                outcome -> assertThat(outcome).isEqualTo(AcceptanceStatements.Outcome.CLAIM_LOST));
        asserter.assertThat(
                () -> commit("key-abandoned", abandoned, CLAIM, true),
                outcome -> assertThat(outcome).isEqualTo(AcceptanceStatements.Outcome.CLAIM_LOST));
        asserter.execute(DatabaseCheck.of(() -> {
            for (String post : List.of(taken, abandoned)) {
                assertThat(count("select count(*) from posts where id = ?", post))
                        .isZero();
                assertThat(count("select count(*) from post_targets where post_id = ?", post))
                        .isZero();
                assertThat(count("select count(*) from outbox where message_key = ?", post))
                        .isZero();
                // Still recorded, so AbandonedAcceptanceJob gives back what the request took.
                assertThat(count("select count(*) from unfinished_acceptances where post_id = ?", post))
                        .isEqualTo(1);
            }
            assertThat(count(
                            "select count(*) from idempotency_keys where workspace_id = ? and state = 'in_flight'",
                            workspace))
                    .isEqualTo(2);
        }));
    }

    private Uni<Long> fence(String id, String account, Instant at, Instant expiresAt) {
        return acceptances.fence(id, account, at, expiresAt);
    }

    private static void assertNothingWritten(String post) throws Exception {
        ClaimedAcceptances.assertNothingWritten(post);
    }

    @Test
    @RunOnVertxContext
    void aPostToAFencedAccountIsNotCommitted(UniAsserter asserter) throws Exception {
        String post = ResourceIds.newId(IdPrefix.POST);
        claimed("key-fenced", post, false);
        asserter.assertThat(
                () -> fence("fence-" + post, secondAccount, now, now.plusSeconds(30)),
                pending -> assertThat(pending).isZero());
        asserter.assertThat(
                () -> commit("key-fenced", post, CLAIM, true),
                outcome -> assertThat(outcome).isEqualTo(AcceptanceStatements.Outcome.FENCED));
        asserter.execute(DatabaseCheck.of(() -> {
            assertNothingWritten(post);
            // The claim and the record of what it took stay until AcceptanceHolds gives them back.
            assertThat(count(
                            "select count(*) from idempotency_keys where workspace_id = ? and key = 'key-fenced' "
                                    + "and state = 'in_flight'",
                            workspace))
                    .isEqualTo(1);
            assertThat(count("select count(*) from unfinished_acceptances where post_id = ?", post))
                    .isEqualTo(1);
        }));
        asserter.execute(() -> fences.lift("fence-" + post, workspace, Mode.TEST, secondAccount, now.plusSeconds(1)));
    }

    @Test
    @RunOnVertxContext
    void aFenceCountsThePostsCommittedBeforeIt(UniAsserter asserter) throws Exception {
        String post = ResourceIds.newId(IdPrefix.POST);
        claimed("key-before", post, false);
        asserter.assertThat(
                () -> commit("key-before", post, CLAIM, false),
                outcome -> assertThat(outcome).isEqualTo(AcceptanceStatements.Outcome.COMMITTED));
        asserter.assertThat(
                () -> fence("fence-" + post, firstAccount, now, now.plusSeconds(30)),
                pending -> assertThat(pending).isEqualTo(1));
        asserter.execute(() -> fences.lift("fence-" + post, workspace, Mode.TEST, firstAccount, now));
    }

    @Test
    @RunOnVertxContext
    void aFenceLiftedAfterTheRequestBeganStillRefusesIt(UniAsserter asserter) throws Exception {
        String refused = ResourceIds.newId(IdPrefix.POST);
        String later = ResourceIds.newId(IdPrefix.POST);
        claimed("key-lifted", refused, false);
        claimed("key-after-lift", later, false);
        String id = "fence-" + refused;
        asserter.execute(() -> fence(id, firstAccount, now.minusSeconds(5), now.plusSeconds(25)));
        asserter.assertThat(
                () -> fences.lift(id, workspace, Mode.TEST, firstAccount, now),
                lifted -> assertThat(lifted).isTrue());
        asserter.assertThat(
                () -> fences.lift(id, workspace, Mode.TEST, firstAccount, now.plusSeconds(1)),
                lifted -> assertThat(lifted).isFalse());
        // Began (less the clock skew) before the lift: it may have read the profile the account left.
        asserter.assertThat(
                () -> commit("key-lifted", refused, CLAIM, true, now.minusSeconds(2)),
                outcome -> assertThat(outcome).isEqualTo(AcceptanceStatements.Outcome.FENCED));
        // Began after it: it read the account as moved.
        asserter.assertThat(
                () -> commit("key-after-lift", later, CLAIM, true, now.plusMillis(1)),
                outcome -> assertThat(outcome).isEqualTo(AcceptanceStatements.Outcome.COMMITTED));
        asserter.execute(DatabaseCheck.of(() -> assertNothingWritten(refused)));
    }

    @Test
    @RunOnVertxContext
    void aFenceNobodyLiftedEndsAtItsExpiry(UniAsserter asserter) throws Exception {
        String refused = ResourceIds.newId(IdPrefix.POST);
        String later = ResourceIds.newId(IdPrefix.POST);
        claimed("key-before-expiry", refused, false);
        claimed("key-after-expiry", later, false);
        Instant expiry = now.minusSeconds(10);
        asserter.execute(() -> fence("fence-" + refused, secondAccount, expiry.minusSeconds(30), expiry));
        asserter.assertThat(
                () -> commit("key-before-expiry", refused, CLAIM, true, expiry.minusSeconds(1)),
                outcome -> assertThat(outcome).isEqualTo(AcceptanceStatements.Outcome.FENCED));
        asserter.assertThat(
                () -> commit("key-after-expiry", later, CLAIM, true, expiry.plusSeconds(1)),
                outcome -> assertThat(outcome).isEqualTo(AcceptanceStatements.Outcome.COMMITTED));
    }
}
