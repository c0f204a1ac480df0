package dev.herald.accounts.messaging;

import static dev.herald.accounts.rest.ConnectSessionResourceTest.as;
import static dev.herald.accounts.rest.ConnectSessionResourceTest.create;
import static dev.herald.accounts.support.AccountsTestSupport.count;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.accounts.rest.ConnectFakeUpstreams;
import dev.herald.common.auth.Mode;
import dev.herald.common.events.ProfileEvent;
import dev.herald.common.events.Topics;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.common.messaging.ProcessedEventRetentionJob;
import dev.herald.common.wire.Profile;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "accounts_test"))
@WithTestResource(value = ConnectFakeUpstreams.class, scope = TestResourceScope.MATCHING_RESOURCES)
class ConnectSessionProfileEventsTest {
    @Inject
    ObjectMapper mapper;

    /** A bean only where herald.processed-events.enabled=true at build time, as this service's application.properties sets. */
    @Inject
    Instance<ProcessedEventRetentionJob> retention;

    @Test
    void deletingAProfileRevokesItsOpenSessionsOnlyOnceAndOnlyItsOwn() throws Exception {
        String workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
        String otherWorkspace = ResourceIds.newId(IdPrefix.WORKSPACE);
        String profile = ResourceIds.newId(IdPrefix.PROFILE);
        String otherProfile = ResourceIds.newId(IdPrefix.PROFILE);
        String doomed = create(workspace, Mode.TEST, "{\"profile_id\":\"" + profile + "\"}");
        String alsoDoomed = create(workspace, Mode.TEST, "{\"profile_id\":\"" + profile + "\"}");
        String otherProfilesSession = create(workspace, Mode.TEST, "{\"profile_id\":\"" + otherProfile + "\"}");
        String liveSession = create(workspace, Mode.LIVE, "{\"profile_id\":\"" + profile + "\"}");
        String otherTenantsSession = create(otherWorkspace, Mode.TEST, "{\"profile_id\":\"" + profile + "\"}");

        Instant now = Instant.now();
        ProfileEvent deleted = new ProfileEvent(
                ResourceIds.newId(IdPrefix.EVENT),
                ProfileEvent.DELETED,
                now,
                workspace,
                Mode.TEST,
                new Profile(profile, "Gone", null, Mode.TEST, now, now));
        String payload = mapper.writeValueAsString(deleted);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                "bootstrap.servers",
                RealInfrastructure.bootstrapServers(),
                "key.serializer",
                StringSerializer.class.getName(),
                "value.serializer",
                StringSerializer.class.getName()))) {
            // Delivered twice, as an at-least-once relay may: applied once.
            producer.send(new ProducerRecord<>(Topics.PROFILE_EVENTS, profile, payload))
                    .get();
            producer.send(new ProducerRecord<>(Topics.PROFILE_EVENTS, profile, payload))
                    .get();
        }

        awaitStatus(workspace, Mode.TEST, doomed, "revoked");
        awaitStatus(workspace, Mode.TEST, alsoDoomed, "revoked");
        String revokedAt = as(workspace, Mode.TEST)
                .get("/connect-sessions/" + doomed)
                .then()
                .extract()
                .path("data.revoked_at");
        Thread.sleep(500);
        assertThat(as(workspace, Mode.TEST)
                        .get("/connect-sessions/" + doomed)
                        .then()
                        .extract()
                        .<String>path("data.revoked_at"))
                .isEqualTo(revokedAt);
        for (String untouched : new String[] {otherProfilesSession}) {
            assertThat(status(workspace, Mode.TEST, untouched)).isEqualTo("open");
        }
        assertThat(status(workspace, Mode.LIVE, liveSession)).isEqualTo("open");
        assertThat(status(otherWorkspace, Mode.TEST, otherTenantsSession)).isEqualTo("open");
        // Recorded where common's retention purge forgets applied event ids, and that purge runs here.
        assertThat(count("select count(*) from processed_events where event_id = ?", deleted.eventId()))
                .isEqualTo(1);
        assertThat(retention.isResolvable()).isTrue();
    }

    private static String status(String workspace, Mode mode, String id) {
        return as(workspace, mode)
                .get("/connect-sessions/" + id)
                .then()
                .statusCode(200)
                .extract()
                .path("data.status");
    }

    private static void awaitStatus(String workspace, Mode mode, String id, String expected)
            throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        String status = status(workspace, mode, id);
        while (!expected.equals(status) && System.nanoTime() < deadline) {
            Thread.sleep(200);
            status = status(workspace, mode, id);
        }
        assertThat(status).isEqualTo(expected);
    }
}
