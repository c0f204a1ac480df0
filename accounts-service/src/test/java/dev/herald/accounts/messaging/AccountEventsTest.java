package dev.herald.accounts.messaging;

import static dev.herald.accounts.support.AccountsTestSupport.as;
import static dev.herald.testing.TopicReader.recordsKeyed;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.accounts.support.FakeServices;
import dev.herald.common.auth.Mode;
import dev.herald.common.events.Topics;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * The outbox reaches the real broker: connected, reassigned and disconnected (with its reconnect link), in order, keyed
 * by account id.
 */
@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "accounts_test"))
@WithTestResource(value = FakeServices.class, scope = TestResourceScope.MATCHING_RESOURCES)
class AccountEventsTest {
    private final ObjectMapper json = new ObjectMapper();

    @Test
    void connectReassignAndDisconnectArePublishedInOrder() throws Exception {
        FakeServices.ensureStarted();
        String workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
        String profile = ResourceIds.newId(IdPrefix.PROFILE);
        FakeServices.addProfile(workspace, "test", profile);
        String id = as(workspace, Mode.TEST)
                .body("{\"platform\":\"tiktok\"}")
                .post("/accounts")
                .then()
                .statusCode(201)
                .extract()
                .path("data.id");
        as(workspace, Mode.TEST)
                .body("{\"profile_id\":\"" + profile + "\"}")
                .patch("/accounts/" + id)
                .then()
                .statusCode(200);
        as(workspace, Mode.TEST).delete("/accounts/" + id).then().statusCode(200);
        // A refused or repeated change emits nothing more.
        as(workspace, Mode.TEST).delete("/accounts/" + id).then().statusCode(200);

        List<ConsumerRecord<String, String>> records =
                recordsKeyed(Topics.ACCOUNT_EVENTS, id, 3, Duration.ofSeconds(60));
        List<JsonNode> events = new ArrayList<>();
        for (ConsumerRecord<String, String> record : records) {
            events.add(json.readTree(record.value()));
        }
        assertThat(events)
                .extracting(e -> e.get("type").asText())
                .containsExactly("account.connected", "account.reassigned", "account.disconnected");
        assertThat(events).allSatisfy(event -> {
            assertThat(event.get("event_id").asText()).matches("^evt_[a-f0-9]{24}$");
            assertThat(event.get("workspace_id").asText()).isEqualTo(workspace);
            assertThat(event.get("mode").asText()).isEqualTo("test");
            assertThat(event.get("account").get("id").asText()).isEqualTo(id);
        });
        assertThat(events.get(1).get("previous_profile_id").isNull()).isTrue();
        assertThat(events.get(1).get("account").get("profile_id").asText()).isEqualTo(profile);
        assertThat(events.get(2).get("account").get("status").asText()).isEqualTo("disconnected");
        // A disconnection carries the link that connects the same account again; the other events carry none.
        assertThat(events.get(2).get("reconnect_url").asText()).contains("/connect/reconnect/");
        assertThat(events.get(0).path("reconnect_url").isTextual()).isFalse();
        assertThat(events.get(1).path("reconnect_url").isTextual()).isFalse();
    }
}
