package dev.herald.posts.repository;

import static dev.herald.posts.support.PostsTestSupport.count;
import static dev.herald.posts.support.PostsTestSupport.execute;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.common.auth.Mode;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.posts.repository.IdempotencyKeyStatements.StoredKey;
import dev.herald.posts.repository.UnfinishedAcceptanceStatements.UnfinishedAcceptance;
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
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

@QuarkusTest
@WithTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = PostsTestSupport.DATABASE),
        scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakeUpstreams.class, scope = TestResourceScope.MATCHING_RESOURCES)
class IdempotencyKeyStatementsTest {
    @Inject
    IdempotencyKeyStatements keys;

    private final String workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
    private final Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);

    /** A request's acceptance under {@code key}, taking two reservations and holding one profile. */
    private UnfinishedAcceptance acceptance(String key) {
        String post = ResourceIds.newId(IdPrefix.POST);
        return new UnfinishedAcceptance(
                post,
                workspace,
                Mode.TEST,
                key,
                UUID.randomUUID().toString(),
                List.of(post + "-b", post + "-a"),
                List.of("prf_" + post));
    }

    private Uni<StoredKey> claim(UnfinishedAcceptance acceptance) {
        return keys.claim(acceptance, "fp-" + acceptance.postId(), now, now.plusSeconds(60));
    }

    /** A key another request holds, until {@code expiresAt}. */
    private void heldByAnother(String key, String claimToken, Instant expiresAt) throws Exception {
        execute(
                """
                insert into idempotency_keys (workspace_id, mode, key, fingerprint, state, claim_token, claimed_at, expires_at)
                values (?, 'test', ?, 'fp-other', 'in_flight', ?, ?, ?)""",
                workspace,
                key,
                claimToken,
                java.sql.Timestamp.from(now.minusSeconds(120)),
                java.sql.Timestamp.from(expiresAt));
    }

    @Test
    @RunOnVertxContext
    void concurrentClaimsGoTogetherAndEachGetsItsOwnAnswer(UniAsserter asserter) throws Exception {
        heldByAnother("held", "another-request", now.plusSeconds(30));
        heldByAnother("expired", "a-dead-request", now.minusSeconds(1));
        List<UnfinishedAcceptance> fresh = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            fresh.add(acceptance("key-" + i));
        }
        UnfinishedAcceptance held = acceptance("held");
        UnfinishedAcceptance expired = acceptance("expired");
        // Two requests with one key at once: one claims it, the other is answered with the first one's claim.
        UnfinishedAcceptance first = acceptance("twice");
        UnfinishedAcceptance second = acceptance("twice");
        List<UnfinishedAcceptance> all = new ArrayList<>(fresh);
        all.addAll(List.of(held, first, expired, second));

        asserter.assertThat(
                () -> Uni.join().all(all.stream().map(this::claim).toList()).andFailFast(), answers -> {
                    for (int i = 0; i < 20; i++) {
                        assertThat(answers.get(i).claimToken())
                                .isEqualTo(fresh.get(i).claimToken());
                        assertThat(answers.get(i).fingerprint())
                                .isEqualTo("fp-" + fresh.get(i).postId());
                        assertThat(answers.get(i).state()).isEqualTo(IdempotencyKeyStatements.IN_FLIGHT);
                    }
                    assertThat(answers.get(20).claimToken()).isEqualTo("another-request");
                    assertThat(answers.get(20).fingerprint()).isEqualTo("fp-other");
                    assertThat(answers.get(21).claimToken()).isEqualTo(first.claimToken());
                    assertThat(answers.get(22).claimToken()).isEqualTo(expired.claimToken());
                    assertThat(answers.get(23).claimToken()).isEqualTo(first.claimToken());
                });
        asserter.execute(DatabaseCheck.of(() -> {
            for (UnfinishedAcceptance claimed : claimedOnes(fresh, first, expired)) {
                assertThat(count(
                                """
                                select count(*) from unfinished_acceptances
                                where post_id = ? and idempotency_key = ? and claim_token = ?
                                    and reservation_ids = array[?, ?]::text[] and profile_ids = array[?]::text[]""",
                                claimed.postId(),
                                claimed.idempotencyKey(),
                                claimed.claimToken(),
                                claimed.reservationIds().get(0),
                                claimed.reservationIds().get(1),
                                claimed.profileIds().get(0)))
                        .as(claimed.idempotencyKey())
                        .isEqualTo(1);
            }
            for (UnfinishedAcceptance refused : List.of(held, second)) {
                assertThat(count("select count(*) from unfinished_acceptances where post_id = ?", refused.postId()))
                        .isZero();
            }
            assertThat(count(
                            "select count(*) from idempotency_keys where workspace_id = ? and claim_token = 'another-request'",
                            workspace))
                    .isEqualTo(1);
        }));
    }

    private static List<UnfinishedAcceptance> claimedOnes(
            List<UnfinishedAcceptance> fresh, UnfinishedAcceptance... others) {
        List<UnfinishedAcceptance> claimed = new ArrayList<>(fresh);
        claimed.addAll(List.of(others));
        return claimed;
    }
}
