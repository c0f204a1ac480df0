package dev.herald.webhooks.messaging;

import static dev.herald.webhooks.support.WebhooksTestSupport.JSON;
import static dev.herald.webhooks.support.WebhooksTestSupport.deliveriesOf;
import static dev.herald.webhooks.support.WebhooksTestSupport.register;
import static dev.herald.webhooks.support.WebhooksTestSupport.reserved;
import static dev.herald.webhooks.support.WebhooksTestSupport.rows;
import static dev.herald.webhooks.support.WebhooksTestSupport.sendUsage;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import dev.herald.common.auth.Mode;
import dev.herald.common.events.UsageEvent;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.common.wire.UsagePeriod;
import dev.herald.openapi.OpenApiDocument;
import dev.herald.sdk.WebhookVerifier;
import dev.herald.testing.RealInfrastructure;
import dev.herald.webhooks.support.Receiver;
import dev.herald.webhooks.support.WebhooksTestSupport;
import dev.herald.webhooks.support.WebhooksTestSupport.Registered;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * usage.reserved in, usage.threshold_reached out, through the real broker and database. The events of one workspace
 * and mode share a partition and are applied in order, so once a later event's delivery has arrived, every earlier
 * one has been applied: that is how "nothing more was sent" is waited for.
 */
@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = WebhooksTestSupport.DATABASE))
class UsageThresholdDeliveryTest {
    private static final UsagePeriod NOVEMBER =
            new UsagePeriod(Instant.parse("2026-11-01T00:00:00Z"), Instant.parse("2026-12-01T00:00:00Z"));
    private static final UsagePeriod DECEMBER =
            new UsagePeriod(Instant.parse("2026-12-01T00:00:00Z"), Instant.parse("2027-01-01T00:00:00Z"));

    private static final JsonSchema DOCUMENTED = WebhooksTestSupport.documentedBody("usage.threshold_reached");

    private final String workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
    private final Receiver receiver;

    UsageThresholdDeliveryTest() throws Exception {
        receiver = new Receiver();
    }

    @AfterEach
    void closeReceiver() {
        receiver.close();
    }

    @Test
    void eachThresholdOfAMeterAndPeriodIsSentOnceSignedWithItsFigures() throws Exception {
        Registered endpoint = register(workspace, Mode.TEST, receiver.url(), "usage.threshold_reached");
        UsageEvent below = reserved(workspace, Mode.TEST, "publications", NOVEMBER, 60, 19, 100L);
        UsageEvent warning = reserved(workspace, Mode.TEST, "publications", NOVEMBER, 70, 10, 100L);

        sendUsage(below, warning);

        Receiver.Request first = receiver.awaitRequests(1, 20_000).get(0);
        JsonNode body = JSON.readTree(first.body());
        assertThat(new WebhookVerifier(List.of(endpoint.secret())).verify(first.body(), first.headers()))
                .isEqualTo(body.get("id").asText());
        assertThat(OpenApiDocument.problems(DOCUMENTED, body)).isEmpty();
        assertThat(body.get("type").asText()).isEqualTo("usage.threshold_reached");
        assertThat(body.get("mode").asText()).isEqualTo("test");
        assertThat(Instant.parse(body.get("created_at").asText())).isEqualTo(warning.occurredAt());
        assertThat(JSON.writeValueAsString(body.get("data")))
                .isEqualTo("{\"meter\":\"publications\",\"threshold\":80,\"used\":70,\"reserved\":10,\"limit\":100,"
                        + "\"period\":{\"start\":\"2026-11-01T00:00:00Z\",\"end\":\"2026-12-01T00:00:00Z\"}}");

        // Past 80 % again in the same period, the same event redelivered, then the whole allowance.
        UsageEvent stillPast = reserved(workspace, Mode.TEST, "publications", NOVEMBER, 70, 15, 100L);
        UsageEvent exhausted = reserved(workspace, Mode.TEST, "publications", NOVEMBER, 99, 1, 100L);
        sendUsage(stillPast, warning, exhausted);

        List<Receiver.Request> requests = receiver.awaitRequests(2, 20_000);
        JsonNode second = JSON.readTree(requests.get(1).body());
        assertThat(second.get("data").get("threshold").asInt()).isEqualTo(100);
        assertThat(second.get("data").get("used").asLong()).isEqualTo(99);
        assertThat(second.get("id").asText()).isNotEqualTo(body.get("id").asText());

        // The next period is a new allowance: it reaches 80 % on its own.
        sendUsage(reserved(workspace, Mode.TEST, "publications", DECEMBER, 0, 90, 100L));
        JsonNode third = JSON.readTree(receiver.awaitRequests(3, 20_000).get(2).body());
        assertThat(third.get("data").get("threshold").asInt()).isEqualTo(80);
        assertThat(third.get("data").get("period").get("start").asText()).isEqualTo("2026-12-01T00:00:00Z");

        Thread.sleep(500);
        assertThat(receiver.requests()).hasSize(3);
        assertThat(deliveriesOf(endpoint.id())).hasSize(3);
        assertThat(rows(
                                "select threshold from usage_thresholds where workspace_id = ? order by period_start, threshold",
                                workspace)
                        .stream()
                        .map(row -> row.get("threshold"))
                        .toList())
                .containsExactly(80, 100, 80);
    }

    @Test
    void aJumpPastBothThresholdsSendsBothAndAThresholdReachedBeforeSubscribingIsNotSentLater() throws Exception {
        // No endpoint yet: the threshold is reached all the same.
        sendUsage(reserved(workspace, Mode.LIVE, "comment_requests", NOVEMBER, 85, 0, 100L));
        WebhooksTestSupport.await(
                "the threshold is recorded",
                () -> !rows("select 1 from usage_thresholds where workspace_id = ?", workspace)
                        .isEmpty());
        register(workspace, Mode.LIVE, receiver.url(), "usage.threshold_reached");
        // Another workspace's meter, and one of this workspace in test mode: not this endpoint's.
        sendUsage(
                reserved(ResourceIds.newId(IdPrefix.WORKSPACE), Mode.LIVE, "comment_requests", NOVEMBER, 100, 0, 100L),
                reserved(workspace, Mode.TEST, "comment_requests", NOVEMBER, 100, 0, 100L),
                reserved(workspace, Mode.LIVE, "comment_requests", NOVEMBER, 90, 0, 100L),
                reserved(workspace, Mode.LIVE, "publications", NOVEMBER, 0, 12, 10L));

        List<Receiver.Request> requests = receiver.awaitRequests(2, 20_000);
        Thread.sleep(500);
        assertThat(receiver.requests()).hasSize(2);
        List<String> reached = requests.stream()
                .map(request -> {
                    try {
                        JsonNode data = JSON.readTree(request.body()).get("data");
                        return data.get("meter").asText() + " "
                                + data.get("threshold").asInt();
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                })
                .toList();
        assertThat(reached).containsExactlyInAnyOrder("publications 80", "publications 100");
    }
}
