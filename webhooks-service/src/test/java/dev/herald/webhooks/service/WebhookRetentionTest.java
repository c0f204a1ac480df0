package dev.herald.webhooks.service;

import static dev.herald.webhooks.support.WebhooksTestSupport.as;
import static dev.herald.webhooks.support.WebhooksTestSupport.register;
import static dev.herald.webhooks.support.WebhooksTestSupport.rows;
import static dev.herald.webhooks.support.WebhooksTestSupport.update;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.common.auth.Mode;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.testing.RealInfrastructure;
import dev.herald.webhooks.support.WebhooksTestSupport;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Delivery records and their events are deleted 30 days (the default retention) after they last changed, usage
 * thresholds 30 days after their period ended.
 */
@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = WebhooksTestSupport.DATABASE))
class WebhookRetentionTest {
    /** Nobody listens there; the pending delivery below is not due before the test ends. */
    private static final String RECEIVER = "http://127.0.0.1:9/hooks";

    @Inject
    WebhookRetention retention;

    @Test
    void finalDeliveriesPastTheRetentionGoWithTheirEventsAndNothingElseDoes() throws Exception {
        String workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
        String endpoint =
                register(workspace, Mode.TEST, RECEIVER, "post.published").id();
        Instant now = Instant.now();
        Instant expired = now.minus(Duration.ofDays(31));
        Instant retained = now.minus(Duration.ofDays(29));

        String succeededLongAgo = event(workspace, expired);
        delivery(succeededLongAgo, endpoint, workspace, "succeeded", expired);
        String failedLongAgo = event(workspace, expired);
        delivery(failedLongAgo, endpoint, workspace, "failed", expired);
        // Created long ago, but one of its deliveries changed lately (a retry by hand): that one and the event stay.
        String sharedEvent = event(workspace, expired);
        delivery(sharedEvent, endpoint, workspace, "succeeded", expired);
        String secondEndpoint =
                register(workspace, Mode.TEST, RECEIVER, "post.published").id();
        String recentOfShared = delivery(sharedEvent, secondEndpoint, workspace, "failed", retained);
        // Still waiting for its next attempt, however long ago it last changed.
        String waitingEvent = event(workspace, expired);
        String pending = delivery(waitingEvent, endpoint, workspace, "pending", expired);
        String recentEvent = event(workspace, retained);
        String recent = delivery(recentEvent, endpoint, workspace, "succeeded", retained);

        WebhookRetention.Purged purged = retention.purge().await().atMost(Duration.ofSeconds(30));

        assertThat(purged.deliveries()).isGreaterThanOrEqualTo(3);
        assertThat(ids("select id from deliveries where workspace_id = ?", workspace))
                .containsExactlyInAnyOrder(recentOfShared, pending, recent);
        assertThat(ids("select id from events where workspace_id = ?", workspace))
                .containsExactlyInAnyOrder(sharedEvent, waitingEvent, recentEvent);
        assertThat(as(workspace, Mode.TEST)
                        .get("/deliveries")
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getList("data.id", String.class))
                .containsExactlyInAnyOrder(recentOfShared, pending, recent);
    }

    @Test
    void usageThresholdsOfPeriodsEndedPastTheRetentionGoAndOthersStay() throws Exception {
        String workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
        Instant now = Instant.now();
        threshold(workspace, now.minus(Duration.ofDays(62)), now.minus(Duration.ofDays(31)));
        threshold(workspace, now.minus(Duration.ofDays(59)), now.minus(Duration.ofDays(29)));
        threshold(workspace, now.minus(Duration.ofDays(1)), now.plus(Duration.ofDays(29)));

        WebhookRetention.Purged purged = retention.purge().await().atMost(Duration.ofSeconds(30));

        assertThat(purged.thresholds()).isGreaterThanOrEqualTo(1);
        assertThat(rows("select period_end from usage_thresholds where workspace_id = ?", workspace))
                .hasSize(2);
    }

    private static void threshold(String workspace, Instant periodStart, Instant periodEnd) throws Exception {
        update(
                "insert into usage_thresholds (workspace_id, mode, meter, period_start, period_end, threshold, "
                        + "event_id, reached_at) values (?, 'test', 'publications', ?, ?, 80, ?, ?)",
                workspace,
                Timestamp.from(periodStart),
                Timestamp.from(periodEnd),
                ResourceIds.newId(IdPrefix.EVENT),
                Timestamp.from(periodStart));
    }

    private static String event(String workspace, Instant createdAt) throws Exception {
        String id = ResourceIds.newId(IdPrefix.EVENT);
        update(
                "insert into events (id, workspace_id, mode, type, source_event_id, payload, created_at) "
                        + "values (?, ?, 'test', 'post.published', ?, '{}', ?)",
                id,
                workspace,
                ResourceIds.newId(IdPrefix.EVENT),
                Timestamp.from(createdAt));
        return id;
    }

    private static String delivery(
            String eventId, String endpointId, String workspace, String status, Instant changedAt) throws Exception {
        String id = ResourceIds.newId(IdPrefix.DELIVERY);
        boolean pending = status.equals("pending");
        Timestamp changed = Timestamp.from(changedAt);
        // A pending row's next attempt is a day away, so the sender leaves it alone while the test runs.
        Timestamp due = pending ? Timestamp.from(Instant.now().plus(Duration.ofDays(1))) : null;
        update(
                "insert into deliveries (id, event_id, event_type, endpoint_id, workspace_id, mode, status, attempts, "
                        + "next_attempt_at, due_at, created_at, updated_at, delivered_at) "
                        + "values (?, ?, 'post.published', ?, ?, 'test', ?, 1, ?, ?, ?, ?, ?)",
                id,
                eventId,
                endpointId,
                workspace,
                status,
                due,
                due,
                changed,
                changed,
                status.equals("succeeded") ? changed : null);
        return id;
    }

    private static List<Object> ids(String sql, String workspace) throws Exception {
        return rows(sql, workspace).stream().map(row -> row.get("id")).toList();
    }
}
