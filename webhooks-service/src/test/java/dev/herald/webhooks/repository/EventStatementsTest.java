package dev.herald.webhooks.repository;

import static dev.herald.webhooks.support.WebhooksTestSupport.register;
import static dev.herald.webhooks.support.WebhooksTestSupport.rows;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.common.auth.Mode;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.testing.RealInfrastructure;
import dev.herald.webhooks.model.ClaimedDelivery;
import dev.herald.webhooks.repository.EventStatements.DirectLeases;
import dev.herald.webhooks.repository.EventStatements.IncomingEvent;
import dev.herald.webhooks.repository.EventStatements.Intake;
import dev.herald.webhooks.support.SlowPoll;
import dev.herald.webhooks.support.WebhooksTestSupport;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The intake leases new deliveries straight to the sender it runs in, within the sender's free slots and the
 * per-endpoint limit (4 in this profile), so they need no claim. The profile polls once a minute, so no claim
 * runs while a test looks at the rows it just wrote.
 */
@QuarkusTest
@TestProfile(SlowPoll.class)
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = WebhooksTestSupport.DATABASE))
class EventStatementsTest {
    private static final Duration LEASE = Duration.ofSeconds(30);
    /** Nobody listens there: these tests look at the rows the intake writes, and nothing sends them. */
    private static final String RECEIVER = "http://127.0.0.1:9/hooks";

    @Inject
    EventStatements events;

    @Test
    void newDeliveriesAreLeasedAtIntakeUpToTheEndpointsLimitAndTheRestWaitForAClaim() throws Exception {
        String workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
        String endpoint =
                register(workspace, Mode.TEST, RECEIVER, "post.published").id();
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);

        Intake intake = intake(workspace, 6, now, 100);

        assertThat(intake.created()).isEqualTo(6);
        assertThat(intake.leased()).hasSize(4).allSatisfy(delivery -> {
            assertThat(delivery.endpointId()).isEqualTo(endpoint);
            assertThat(delivery.attempts()).isEqualTo(1);
            assertThat(delivery.url()).isEqualTo(RECEIVER);
            assertThat(delivery.sealedSecrets()).hasSize(1);
            assertThat(delivery.payload()).contains("\"type\":\"post.published\"");
        });
        Map<String, UUID> tokens =
                intake.leased().stream().collect(Collectors.toMap(ClaimedDelivery::id, ClaimedDelivery::leaseToken));
        List<Map<String, Object>> stored = rows("select * from deliveries where endpoint_id = ?", endpoint);
        assertThat(stored).hasSize(6);
        for (Map<String, Object> row : stored) {
            UUID token = tokens.get((String) row.get("id"));
            assertThat(row.get("status")).isEqualTo("pending");
            assertThat(row.get("lease_token")).isEqualTo(token);
            if (token != null) {
                // Exactly as a claim leaves a row: the attempt counted, due again when the lease lapses.
                assertThat(row.get("attempts")).isEqualTo(1);
                assertThat(instant(row, "lease_until")).isEqualTo(now.plus(LEASE));
                assertThat(instant(row, "due_at")).isEqualTo(now.plus(LEASE));
            } else {
                assertThat(row.get("attempts")).isEqualTo(0);
                assertThat(row.get("lease_until")).isNull();
                assertThat(instant(row, "due_at")).isEqualTo(now);
            }
        }
    }

    @Test
    void theIntakeLeasesNoMoreThanTheSendersFreeSlotsAndCountsOtherSendersLeases() throws Exception {
        String workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
        register(workspace, Mode.TEST, RECEIVER, "post.published");
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);

        assertThat(intake(workspace, 3, now, 1).leased()).hasSize(1);
        // One lease is held (by "another sender", as far as the next intake knows): three more fit under the limit.
        assertThat(intake(workspace, 5, now, 100).leased()).hasSize(3);
        assertThat(intake(workspace, 2, now, 0).leased()).isEmpty();
    }

    @Test
    void eventsNoEndpointWantsAreOnlyRecordedAndEveryEventIsAppliedOnce() throws Exception {
        String subscribed = ResourceIds.newId(IdPrefix.WORKSPACE);
        String unsubscribed = ResourceIds.newId(IdPrefix.WORKSPACE);
        String endpoint =
                register(subscribed, Mode.TEST, RECEIVER, "post.published").id();
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        IncomingEvent wanted = event(subscribed, "post.published", now);
        IncomingEvent otherType = event(subscribed, "post.failed", now);
        IncomingEvent noEndpoint = event(unsubscribed, "post.published", now);
        List<IncomingEvent> batch = List.of(wanted, otherType, noEndpoint);
        List<String> sources = List.of(wanted.sourceEventId(), otherType.sourceEventId(), noEndpoint.sourceEventId());

        Intake first = events.intake(batch, now, new DirectLeases(100, 4, now.plus(LEASE)))
                .await()
                .atMost(Duration.ofSeconds(10));

        assertThat(first.created()).isEqualTo(1);
        assertThat(first.leased()).singleElement().satisfies(delivery -> {
            assertThat(delivery.eventId()).isEqualTo(wanted.eventId());
            assertThat(delivery.endpointId()).isEqualTo(endpoint);
        });
        assertThat(processed(sources)).containsExactlyInAnyOrderElementsOf(sources);
        assertThat(rows("select id from events where workspace_id in (?, ?)", subscribed, unsubscribed))
                .extracting(row -> row.get("id"))
                .containsExactly(wanted.eventId());

        // Redelivered, even after the other workspace subscribed: nothing is stored or sent a second time.
        register(unsubscribed, Mode.TEST, RECEIVER, "post.published");
        Intake again = events.intake(batch, now, new DirectLeases(100, 4, now.plus(LEASE)))
                .await()
                .atMost(Duration.ofSeconds(10));

        assertThat(again.created()).isZero();
        assertThat(again.leased()).isEmpty();
        assertThat(rows("select id from events where workspace_id in (?, ?)", subscribed, unsubscribed))
                .hasSize(1);
        assertThat(rows("select id from deliveries where workspace_id in (?, ?)", subscribed, unsubscribed))
                .hasSize(1);
    }

    private static IncomingEvent event(String workspace, String type, Instant now) {
        String id = ResourceIds.newId(IdPrefix.EVENT);
        return new IncomingEvent(
                ResourceIds.newId(IdPrefix.EVENT),
                id,
                workspace,
                Mode.TEST,
                type,
                "{\"id\":\"" + id + "\",\"type\":\"" + type + "\"}",
                now,
                null);
    }

    private static List<Object> processed(List<String> sourceIds) throws Exception {
        List<Object> found = new ArrayList<>();
        for (String id : sourceIds) {
            rows("select event_id from processed_events where event_id = ?", id)
                    .forEach(row -> found.add(row.get("event_id")));
        }
        return found;
    }

    private Intake intake(String workspace, int count, Instant now, int slots) {
        List<IncomingEvent> batch = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String id = ResourceIds.newId(IdPrefix.EVENT);
            batch.add(new IncomingEvent(
                    ResourceIds.newId(IdPrefix.EVENT),
                    id,
                    workspace,
                    Mode.TEST,
                    "post.published",
                    "{\"id\":\"" + id + "\",\"type\":\"post.published\"}",
                    now,
                    null));
        }
        return events.intake(batch, now, new DirectLeases(slots, 4, now.plus(LEASE)))
                .await()
                .atMost(Duration.ofSeconds(10));
    }

    private static Instant instant(Map<String, Object> row, String column) {
        Object value = row.get(column);
        return value instanceof OffsetDateTime time ? time.toInstant() : ((java.sql.Timestamp) value).toInstant();
    }
}
