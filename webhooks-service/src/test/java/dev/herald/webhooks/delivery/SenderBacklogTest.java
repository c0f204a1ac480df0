package dev.herald.webhooks.delivery;

import static dev.herald.webhooks.support.WebhooksTestSupport.JSON;
import static dev.herald.webhooks.support.WebhooksTestSupport.finalized;
import static dev.herald.webhooks.support.WebhooksTestSupport.register;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.common.auth.Mode;
import dev.herald.common.events.PostFinalizedEvent;
import dev.herald.common.events.Topics;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.testing.RealInfrastructure;
import dev.herald.webhooks.support.Receiver;
import dev.herald.webhooks.support.SlowPoll;
import dev.herald.webhooks.support.WebhooksTestSupport;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * A backlog for one endpoint drains as fast as the receiver answers, not {@code max-in-flight-per-endpoint}
 * attempts per poll interval: the sender looks again whenever an outcome is written while attempts are in flight.
 * The poll interval is a minute here, so only that can deliver the backlog in time.
 */
@QuarkusTest
@TestProfile(SlowPoll.class)
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = WebhooksTestSupport.DATABASE))
class SenderBacklogTest {
    private static final int EVENTS = 120;

    @Test
    void aBacklogForOneEndpointIsDeliveredWithoutWaitingForThePollInterval() throws Exception {
        String workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
        try (Receiver receiver = new Receiver()) {
            register(workspace, Mode.TEST, receiver.url(), "post.published");
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                    "bootstrap.servers",
                    RealInfrastructure.bootstrapServers(),
                    "key.serializer",
                    StringSerializer.class.getName(),
                    "value.serializer",
                    StringSerializer.class.getName(),
                    "linger.ms",
                    "50"))) {
                for (int i = 0; i < EVENTS; i++) {
                    PostFinalizedEvent event = finalized(workspace, Mode.TEST, PostFinalizedEvent.PUBLISHED);
                    producer.send(new ProducerRecord<>(
                            Topics.POST_FINALIZED, event.post().id(), JSON.writeValueAsString(event)));
                }
                producer.flush();
            }

            // Four at a time per endpoint: at one claim per intake batch and per minute's poll this would take minutes.
            var requests = receiver.awaitRequests(EVENTS, 30_000);
            Set<String> ids = requests.stream()
                    .map(request -> request.header("webhook-id"))
                    .collect(Collectors.toSet());
            assertThat(ids).hasSize(EVENTS);
        }
    }
}
