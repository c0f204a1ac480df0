package dev.herald.usage.messaging;

import static dev.herald.usage.support.UsageTestSupport.as;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.auth.Mode;
import dev.herald.common.events.Topics;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.testing.RealInfrastructure;
import dev.herald.testing.TopicReader;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** The outbox reaches the real broker: every change of a reservation, in order, keyed by workspace and mode. */
@QuarkusTest
@QuarkusTestResource(value = RealInfrastructure.class, initArgs = @ResourceArg(name = "database", value = "usage_test"))
class UsageEventsTest {
    private final ObjectMapper json = new ObjectMapper();

    @Test
    void reservationChangesArePublishedInOrder() throws Exception {
        String workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
        as(workspace, Mode.LIVE)
                .body("{\"reservation_id\":\"evt-1\",\"meter\":\"publications\",\"units\":2}")
                .post("/internal/reservations")
                .then()
                .statusCode(201);
        as(workspace, Mode.LIVE)
                .post("/internal/reservations/evt-1/consume")
                .then()
                .statusCode(200);
        as(workspace, Mode.LIVE)
                .body("{\"reservation_id\":\"evt-2\",\"meter\":\"new_connections\",\"units\":1}")
                .post("/internal/reservations")
                .then()
                .statusCode(201);
        as(workspace, Mode.LIVE)
                .post("/internal/reservations/evt-2/release")
                .then()
                .statusCode(200);
        // A refusal publishes nothing.
        as(workspace, Mode.LIVE)
                .body("{\"reservation_id\":\"evt-3\",\"meter\":\"publications\",\"units\":100}")
                .post("/internal/reservations")
                .then()
                .statusCode(429);

        String key = workspace + ":live";
        List<ConsumerRecord<String, String>> records = recordsKeyed(key, 4, Duration.ofSeconds(30));
        assertThat(records).hasSize(4).extracting(ConsumerRecord::key).containsOnly(key);
        List<JsonNode> events = new ArrayList<>();
        for (ConsumerRecord<String, String> record : records) {
            events.add(json.readTree(record.value()));
        }
        assertThat(events)
                .extracting(e -> e.get("type").asText())
                .containsExactly("usage.reserved", "usage.consumed", "usage.reserved", "usage.released");
        assertThat(events).allSatisfy(event -> {
            assertThat(event.get("event_id").asText()).matches("^evt_[a-f0-9]{24}$");
            assertThat(event.get("workspace_id").asText()).isEqualTo(workspace);
            assertThat(event.get("mode").asText()).isEqualTo("live");
            assertThat(event.get("occurred_at").asText()).endsWith("Z");
        });
        JsonNode consumed = events.get(1).get("reservation");
        assertThat(consumed.get("id").asText()).isEqualTo("evt-1");
        assertThat(consumed.get("status").asText()).isEqualTo("consumed");
        assertThat(consumed.get("units").asLong()).isEqualTo(2);
        assertThat(consumed.get("consumed_period").get("start").asText()).isNotEmpty();
        assertThat(events.get(3).get("reservation").get("meter").asText()).isEqualTo("new_connections");
        // A reservation tells its meter as it left it (the free plan: 20 publications, 4 new connections); the
        // other changes tell none.
        assertThat(events.get(0).get("meter_state"))
                .isEqualTo(json.readTree("{\"used\":0,\"reserved\":2,\"limit\":20}"));
        assertThat(events.get(2).get("meter_state"))
                .isEqualTo(json.readTree("{\"used\":0,\"reserved\":1,\"limit\":4}"));
        assertThat(events.get(1).get("meter_state").isNull()).isTrue();
        assertThat(events.get(3).get("meter_state").isNull()).isTrue();

        Thread.sleep(1000);
        assertThat(recordsKeyed(key, 5, Duration.ofSeconds(2))).hasSize(4);
    }

    private static List<ConsumerRecord<String, String>> recordsKeyed(String key, int expected, Duration timeout) {
        return TopicReader.recordsKeyed(Topics.USAGE_RESERVED, key, expected, timeout);
    }
}
