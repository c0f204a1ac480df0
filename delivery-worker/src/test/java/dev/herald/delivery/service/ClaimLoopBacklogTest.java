package dev.herald.delivery.service;

import static dev.herald.delivery.support.DeliveryTestSupport.rows;
import static dev.herald.delivery.support.DeliveryTestSupport.update;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.delivery.support.DeliveryTestSupport;
import dev.herald.delivery.support.FakeUsageService;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The claim loop through a backlog: after a claim that took all it asked for it looks again by itself, without
 * waiting for its next tick. Here the tick is an hour away and a claim takes five, so only those looks can take the
 * thirty due deliveries.
 */
@QuarkusTest
@TestProfile(ClaimLoopBacklogTest.OneTickAnHour.class)
@WithTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = DeliveryTestSupport.DATABASE),
        scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakeUsageService.class, scope = TestResourceScope.MATCHING_RESOURCES)
class ClaimLoopBacklogTest {
    private static final int DUE = 30;

    public static class OneTickAnHour implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("herald.delivery.poll-interval", "PT1H", "herald.delivery.claim-batch-size", "5");
        }
    }

    @Inject
    DueDeliveryPoller poller;

    @Test
    void aFullClaimIsFollowedByAnotherUntilNoneIsDue() throws Exception {
        FakeUsageService.ensureStarted();
        String postId = ResourceIds.newId(IdPrefix.POST);
        String workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
        for (int i = 0; i < DUE; i++) {
            String accountId = ResourceIds.newId(IdPrefix.ACCOUNT);
            update("""
                    insert into deliveries (post_id, account_id, workspace_id, mode, platform, account_username,
                        reservation_id, text, platform_options, status, next_attempt_at, source_event_id, created_at,
                        updated_at)
                    values (?, ?, ?, 'test', 'tiktok', 'acme', ?, 'Hello', '{}', 'pending', now(), ?, now(), now())""", postId, accountId, workspace, postId + "-" + accountId, ResourceIds.newId(IdPrefix.EVENT));
        }

        poller.poll();

        DeliveryTestSupport.await(
                "every due delivery is published",
                () -> rows("select 1 from deliveries where post_id = ? and status = 'published'", postId)
                                .size()
                        == DUE);
        assertThat(rows("select 1 from deliveries where post_id = ? and attempts <> 1", postId))
                .isEmpty();
    }
}
