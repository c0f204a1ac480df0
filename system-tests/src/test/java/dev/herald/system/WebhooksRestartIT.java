package dev.herald.system;

import static dev.herald.system.PostsPipelineIT.accepted;
import static dev.herald.system.PostsPipelineIT.account;
import static dev.herald.system.PostsPipelineIT.awaitFinal;
import static dev.herald.system.PostsPipelineIT.linkedIn;
import static dev.herald.system.PostsPipelineIT.testKey;
import static dev.herald.system.WebhooksIT.all;
import static dev.herald.system.WebhooksIT.awaitDeliveries;
import static dev.herald.system.WebhooksIT.register;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.system.WebhooksIT.Endpoint;
import dev.herald.system.WebhooksIT.Receiver;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Webhooks across a crash of webhooks-service: deliveries waiting for their retry, and events that arrive while the
 * service is down, all reach the receiver once it is back. Isolated: every other test's webhooks would be
 * unavailable while the service is down.
 */
@Isolated
class WebhooksRestartIT {
    private Receiver receiver;

    @AfterEach
    void closeReceiver() {
        if (receiver != null) {
            receiver.close();
        }
    }

    @Test
    void restartingWebhooksServiceMidRetryLosesNothing() throws Exception {
        String key = testKey("Webhook restart");
        AtomicBoolean recovered = new AtomicBoolean();
        receiver = new Receiver(n -> recovered.get() ? 200 : 503);
        Endpoint endpoint = register(key, receiver.url(), "post.published");
        String account = account(key, "linkedin", "brand");
        List<String> posts = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            posts.add(accepted(key, linkedIn(account)));
        }
        // Each delivery has failed once and waits for its retry when the service dies.
        awaitDeliveries(
                key,
                endpoint.id(),
                found -> found.size() == 3
                        && found.stream().allMatch(delivery -> (Integer) delivery.get("attempts") >= 1),
                30_000);
        RunningSuite.get().kill("webhooks-service");
        recovered.set(true);
        // A post that finalizes while the service is down is delivered after it is back.
        posts.add(accepted(key, linkedIn(account)));
        assertThat(awaitFinal(key, posts.get(3)).getString("data.status")).isEqualTo("published");
        RunningSuite.get().start("webhooks-service");

        List<Map<String, Object>> found = awaitDeliveries(key, endpoint.id(), all(4, "succeeded"), 60_000);
        assertThat(found)
                .hasSize(4)
                .allSatisfy(delivery -> assertThat(delivery.get("status")).isEqualTo("succeeded"));
        List<String> delivered = new ArrayList<>();
        for (Receiver.Request request : receiver.requests()) {
            if (request.status() == 200) {
                delivered.add(request.verify(endpoint.secret()).getString("data.id"));
            }
        }
        assertThat(delivered).containsExactlyInAnyOrderElementsOf(posts);
    }
}
