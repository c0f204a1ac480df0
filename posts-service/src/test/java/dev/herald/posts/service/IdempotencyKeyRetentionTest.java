package dev.herald.posts.service;

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
import org.junit.jupiter.api.Test;

@QuarkusTest
@WithTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = PostsTestSupport.DATABASE),
        scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakeUpstreams.class, scope = TestResourceScope.MATCHING_RESOURCES)
class IdempotencyKeyRetentionTest {
    @Inject
    IdempotencyKeyRetention retention;

    private final String workspace = ResourceIds.newId(IdPrefix.WORKSPACE);

    private void key(String key, String expiresIn) throws Exception {
        execute("""
                insert into idempotency_keys (workspace_id, mode, key, fingerprint, state, claim_token, claimed_at, expires_at)
                values (?, 'test', ?, 'fp', 'completed', 'claim', now(), now() + cast(? as interval))""", workspace, key, expiresIn);
    }

    private long keys(String key) throws Exception {
        return count("select count(*) from idempotency_keys where workspace_id = ? and key = ?", workspace, key);
    }

    @Test
    void expiredKeysAreDeletedInBatchesAndLiveOnesKept() throws Exception {
        for (int i = 0; i < IdempotencyKeyRetention.BATCH_SIZE + 5; i++) {
            key("expired-" + i, "-1 second");
        }
        key("answers-replays", "23 hours");

        assertThat(retention.purge().await().indefinitely())
                .as("every expired key, over more than one batch")
                .isGreaterThanOrEqualTo(IdempotencyKeyRetention.BATCH_SIZE + 5);
        assertThat(count(
                        "select count(*) from idempotency_keys where workspace_id = ? and key like 'expired-%'",
                        workspace))
                .isZero();
        assertThat(keys("answers-replays")).isEqualTo(1);
    }
}
