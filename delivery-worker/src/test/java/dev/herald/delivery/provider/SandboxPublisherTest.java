package dev.herald.delivery.provider;

import static dev.herald.delivery.support.DeliveryTestSupport.sandboxPublications;
import static dev.herald.delivery.support.DeliveryTestSupport.sandboxPublishCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.herald.common.auth.Mode;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.common.wire.Platform;
import dev.herald.delivery.support.DeliveryTestSupport;
import dev.herald.delivery.support.FakePlatformApis;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The sandbox provider called directly, with its memory in the real database: a repeated call answers the same post,
 * and every call is recorded, so a target published twice shows as two calls answered with a post (the record the
 * system tests' fault runs count).
 */
@QuarkusTest
@WithTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "delivery_test"),
        scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakePlatformApis.class, scope = TestResourceScope.MATCHING_RESOURCES)
class SandboxPublisherTest {
    @Inject
    SandboxPublisher publisher;

    private final String postId = ResourceIds.newId(IdPrefix.POST);
    private final String accountId = ResourceIds.newId(IdPrefix.ACCOUNT);

    @Test
    void aTargetPublishedTwiceShowsTwoCallsAnsweredWithItsPost() throws Exception {
        // The duplicate planted on purpose: the same target handed to the sandbox twice, as a bug would.
        PublishOutcome first = publish("acme_brand", 1);
        PublishOutcome second = publish("acme_brand", 1);

        String post = SandboxPublisher.providerPostIdOf(PublishRequest.tokenOf(postId, accountId));
        assertThat(List.of(first, second))
                .extracting(PublishOutcome::providerPostId)
                .containsExactly(post, post);
        // The token's row cannot tell this from one publication: it holds the one post.
        assertThat(sandboxPublications(postId, accountId))
                .singleElement()
                .satisfies(publication -> assertThat(publication)
                        .containsEntry("provider_post_id", post)
                        .containsEntry("publish_calls", 2));
        // The calls' record can.
        assertThat(sandboxPublishCalls(postId, accountId))
                .extracting(
                        call -> call.get("call_number"),
                        call -> call.get("attempt"),
                        call -> call.get("provider_post_id"))
                .containsExactly(tuple(1, 1, post), tuple(2, 1, post));
    }

    @Test
    void aFlakyTargetsFailedCallIsRecordedWithoutAPostAndItsRetryWithOne() throws Exception {
        PublishOutcome failed = publish("flaky_page", 1);
        PublishOutcome published = publish("flaky_page", 2);

        assertThat(failed.providerPostId()).isNull();
        assertThat(published.providerPostId()).startsWith("sbx_");
        List<Map<String, Object>> calls = sandboxPublishCalls(postId, accountId);
        assertThat(calls).extracting(call -> call.get("attempt")).containsExactly(1, 2);
        assertThat(calls)
                .extracting(call -> call.get("provider_post_id"))
                .containsExactly(null, published.providerPostId());
        assertThat(calls).allSatisfy(call -> assertThat(call.get("called_at")).isNotNull());
    }

    @Test
    void lookingForAnInterruptedCallsPostIsNoCall() throws Exception {
        PublishOutcome published = publish("acme_brand", 1);

        PublishOutcome found =
                publisher.reconcile(request("acme_brand", 1)).await().atMost(Duration.ofSeconds(30));

        assertThat(found.providerPostId()).isEqualTo(published.providerPostId());
        assertThat(sandboxPublishCalls(postId, accountId)).hasSize(1);
    }

    private PublishOutcome publish(String username, int attempt) {
        return publisher.publish(request(username, attempt)).await().atMost(Duration.ofSeconds(30));
    }

    private PublishRequest request(String username, int attempt) {
        return new PublishRequest(
                PublishRequest.tokenOf(postId, accountId),
                ResourceIds.newId(IdPrefix.WORKSPACE),
                Mode.TEST,
                Platform.LINKEDIN,
                postId,
                accountId,
                username,
                "Hello from Herald",
                List.of(),
                DeliveryTestSupport.JSON.createObjectNode(),
                attempt,
                false);
    }
}
