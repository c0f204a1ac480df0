package dev.herald.profiles.messaging;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.auth.Mode;
import dev.herald.common.events.Topics;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.testing.OutboxRelayHold;
import dev.herald.testing.RealInfrastructure;
import dev.herald.testing.TestTokens;
import dev.herald.testing.TopicReader;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** The outbox reaches the real broker: every change of a profile, in order, keyed by the profile id. */
@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "profiles_test"))
class ProfileEventsTest {
    private final ObjectMapper json = new ObjectMapper();

    @Test
    void createUpdateAndDeleteArePublishedInOrderKeyedByProfile() throws Exception {
        String workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
        String bearer = TestTokens.bearer(workspace, Mode.LIVE, "profiles:write");
        String id = given().header("Authorization", bearer)
                .contentType(ContentType.JSON)
                .body("{\"name\":\"Evented\"}")
                .post("/profiles")
                .then()
                .statusCode(201)
                .extract()
                .path("data.id");
        given().header("Authorization", bearer)
                .contentType(ContentType.JSON)
                .body("{\"external_id\":\"e-1\"}")
                .patch("/profiles/" + id)
                .then()
                .statusCode(200);
        given().header("Authorization", bearer).delete("/profiles/" + id).then().statusCode(200);

        List<ConsumerRecord<String, String>> records = recordsKeyed(id, 3, Duration.ofSeconds(30));

        assertThat(records).extracting(ConsumerRecord::key).containsOnly(id);
        List<JsonNode> events = new ArrayList<>();
        for (ConsumerRecord<String, String> record : records) {
            events.add(json.readTree(record.value()));
        }
        assertThat(events)
                .extracting(e -> e.get("type").asText())
                .containsExactly("profile.created", "profile.updated", "profile.deleted");
        assertThat(events).allSatisfy(event -> {
            assertThat(event.get("event_id").asText()).matches("^evt_[a-f0-9]{24}$");
            assertThat(event.get("workspace_id").asText()).isEqualTo(workspace);
            assertThat(event.get("mode").asText()).isEqualTo("live");
            assertThat(event.get("occurred_at").asText()).endsWith("Z");
        });
        assertThat(events.get(1).get("profile").get("external_id").asText()).isEqualTo("e-1");
        assertThat(events.stream().map(e -> e.get("event_id").asText()).distinct())
                .hasSize(3);
    }

    @Test
    void aRefusedChangePublishesNothing() throws Exception {
        String workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
        String bearer = TestTokens.bearer(workspace, Mode.TEST, "profiles:write");
        String id = given().header("Authorization", bearer)
                .contentType(ContentType.JSON)
                .body("{\"name\":\"First\",\"external_id\":\"dup\"}")
                .post("/profiles")
                .then()
                .statusCode(201)
                .extract()
                .path("data.id");
        String other = given().header("Authorization", bearer)
                .contentType(ContentType.JSON)
                .body("{\"name\":\"Second\"}")
                .post("/profiles")
                .then()
                .statusCode(201)
                .extract()
                .path("data.id");
        given().header("Authorization", bearer)
                .contentType(ContentType.JSON)
                .body("{\"external_id\":\"dup\"}")
                .patch("/profiles/" + other)
                .then()
                .statusCode(409);

        assertThat(recordsKeyed(id, 1, Duration.ofSeconds(30))).hasSize(1);
        // The refused PATCH wrote no event: "other" has exactly its creation, even after the relay has caught up.
        List<ConsumerRecord<String, String>> otherRecords = recordsKeyed(other, 1, Duration.ofSeconds(30));
        Thread.sleep(1000);
        assertThat(recordsKeyed(other, 2, Duration.ofSeconds(2))).hasSize(1);
        assertThat(json.readTree(otherRecords.get(0).value()).get("type").asText())
                .isEqualTo("profile.created");
    }

    @Test
    void nothingIsRelayedWhileAnotherRelayHoldsTheLock() throws Exception {
        String workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
        String bearer = TestTokens.bearer(workspace, Mode.TEST, "profiles:write");
        String id;
        try (OutboxRelayHold otherRelay = OutboxRelayHold.on("profiles_test")) {
            id = given().header("Authorization", bearer)
                    .contentType(ContentType.JSON)
                    .body("{\"name\":\"Held\"}")
                    .post("/profiles")
                    .then()
                    .statusCode(201)
                    .extract()
                    .path("data.id");
            // Many relay ticks pass: the event stays in the outbox, unclaimed.
            assertThat(recordsKeyed(id, 1, Duration.ofSeconds(2))).isEmpty();
            assertThat(outboxRowsKeyed(id)).isEqualTo(1);
        }
        assertThat(recordsKeyed(id, 1, Duration.ofSeconds(30))).hasSize(1);
    }

    private static long outboxRowsKeyed(String key) throws Exception {
        try (Connection connection = RealInfrastructure.connect("profiles_test");
                PreparedStatement count = connection.prepareStatement(
                        "select count(*) from outbox where published_at is null and message_key = ?")) {
            count.setString(1, key);
            try (ResultSet rows = count.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    private static List<ConsumerRecord<String, String>> recordsKeyed(String key, int expected, Duration timeout) {
        return TopicReader.recordsKeyed(Topics.PROFILE_EVENTS, key, expected, timeout);
    }
}
