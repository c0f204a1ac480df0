package dev.herald.webhooks.messaging;

import static dev.herald.webhooks.support.WebhooksTestSupport.JSON;
import static dev.herald.webhooks.support.WebhooksTestSupport.as;
import static dev.herald.webhooks.support.WebhooksTestSupport.await;
import static dev.herald.webhooks.support.WebhooksTestSupport.deliveriesOf;
import static dev.herald.webhooks.support.WebhooksTestSupport.finalized;
import static dev.herald.webhooks.support.WebhooksTestSupport.register;
import static dev.herald.webhooks.support.WebhooksTestSupport.send;
import static dev.herald.webhooks.support.WebhooksTestSupport.sendRaw;
import static dev.herald.webhooks.support.WebhooksTestSupport.sendTraced;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import com.fasterxml.jackson.databind.JsonNode;
import dev.herald.common.auth.Mode;
import dev.herald.common.events.PostFinalizedEvent;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.sdk.WebhookVerifier;
import dev.herald.testing.RealInfrastructure;
import dev.herald.webhooks.support.Receiver;
import dev.herald.webhooks.support.Receiver.Answer;
import dev.herald.webhooks.support.WebhooksTestSupport;
import dev.herald.webhooks.support.WebhooksTestSupport.Registered;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * post.finalized in, signed webhook deliveries out, through the real broker and database to a local receiver that
 * checks every signature with common's {@link WebhookVerifier}. The test profile compresses the retry schedule
 * (0.3 s, 0.3 s, 0.3 s, 2 s: five attempts) and the request timeout (2 s).
 */
@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = WebhooksTestSupport.DATABASE))
class PostFinalizedDeliveryTest {
    private final String workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
    private final java.util.List<Receiver> receivers = new java.util.ArrayList<>();

    private Receiver receiver() throws Exception {
        Receiver receiver = new Receiver();
        receivers.add(receiver);
        return receiver;
    }

    @AfterEach
    void closeReceivers() {
        receivers.forEach(Receiver::close);
    }

    private static String postIdOf(Receiver.Request request) {
        try {
            return JSON.readTree(request.body()).get("data").get("id").asText();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String verified(Receiver.Request request, String... secrets) {
        return new WebhookVerifier(List.of(secrets)).verify(request.body(), request.headers());
    }

    @Test
    void aSubscribedEventArrivesSignedOverItsRawBodyWithTheDocumentedShapeAndHeaders() throws Exception {
        Receiver receiver = receiver();
        Registered endpoint = register(workspace, Mode.TEST, receiver.url(), "post.published", "post.failed");
        PostFinalizedEvent event = finalized(workspace, Mode.TEST, PostFinalizedEvent.PUBLISHED);

        send(event);

        Receiver.Request request = receiver.awaitRequests(1, 20_000).get(0);
        assertThat(request.path()).isEqualTo("/hooks");
        assertThat(verified(request, endpoint.secret())).matches("^evt_[a-f0-9]{24}$");
        assertThat(request.header("content-type")).isEqualTo("application/json");
        assertThat(request.header("user-agent")).isEqualTo("Herald-Webhooks/1.0");
        assertThat(request.header("webhook-signature")).matches("^v1=[a-f0-9]{64}$");
        assertThat(Long.parseLong(request.header("webhook-timestamp")))
                .isCloseTo(Instant.now().getEpochSecond(), org.assertj.core.data.Offset.offset(5L));

        JsonNode body = JSON.readTree(request.body());
        assertThat(body.fieldNames()).toIterable().containsExactly("id", "type", "created_at", "mode", "data");
        assertThat(body.get("id").asText()).isEqualTo(request.header("webhook-id"));
        assertThat(body.get("type").asText()).isEqualTo("post.published");
        assertThat(body.get("mode").asText()).isEqualTo("test");
        assertThat(Instant.parse(body.get("created_at").asText())).isEqualTo(event.occurredAt());
        JsonNode post = body.get("data");
        assertThat(post.get("id").asText()).isEqualTo(event.post().id());
        assertThat(post.get("status").asText()).isEqualTo("published");
        assertThat(post.get("text").asText()).isEqualTo("Hello, webhooks \u2713");
        assertThat(post.get("targets").get(0).get("status").asText()).isEqualTo("published");
        assertThat(post.get("targets").get(0).get("provider_post_id").asText()).isEqualTo("sbx_0123");

        await(
                "the delivery succeeded",
                () -> "succeeded".equals(deliveriesOf(endpoint.id()).get(0).get("status")));
        as(workspace, Mode.TEST)
                .queryParam("endpoint_id", endpoint.id())
                .get("/deliveries")
                .then()
                .statusCode(200)
                .body("data.size()", equalTo(1))
                .body("data[0].event_id", equalTo(body.get("id").asText()))
                .body("data[0].event_type", equalTo("post.published"))
                .body("data[0].status", equalTo("succeeded"))
                .body("data[0].attempts", equalTo(1))
                .body("data[0].last_response_status", equalTo(200))
                .body("data[0].next_attempt_at", equalTo(null));
    }

    @Test
    void anAttemptBelongsToTheEventsTraceWhichIsNotSentToTheReceiverAndIsCounted() throws Exception {
        Receiver receiver = receiver();
        Registered endpoint = register(workspace, Mode.TEST, receiver.url(), "post.published");
        PostFinalizedEvent event = finalized(workspace, Mode.TEST, PostFinalizedEvent.PUBLISHED);
        String traceParent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00";

        sendTraced(event, traceParent);

        Receiver.Request request = receiver.awaitRequests(1, 20_000).get(0);
        assertThat(request.header("traceparent"))
                .as("our trace is not the receiver's business")
                .isNull();
        assertThat(WebhooksTestSupport.rows(
                        "select trace_parent from events where source_event_id = ?", event.eventId()))
                .singleElement()
                .satisfies(row -> assertThat(row).containsEntry("trace_parent", traceParent));
        await(
                "the delivery succeeded",
                () -> "succeeded".equals(deliveriesOf(endpoint.id()).get(0).get("status")));
        assertThat(given().get("/q/metrics")
                        .then()
                        .statusCode(200)
                        .extract()
                        .asString()
                        .lines())
                .anyMatch(line -> line.startsWith("herald_webhook_attempts_total{outcome=\"succeeded\"}"))
                .anyMatch(line ->
                        line.startsWith("herald_webhook_attempt_duration_seconds_count{outcome=\"succeeded\"}"));
    }

    @Test
    void onlySubscribedEventsOfTheEndpointsOwnWorkspaceAndModeAreDelivered() throws Exception {
        Receiver receiver = receiver();
        Registered endpoint = register(workspace, Mode.TEST, receiver.url(), "post.failed", "post.canceled");
        PostFinalizedEvent published = finalized(workspace, Mode.TEST, PostFinalizedEvent.PUBLISHED);
        PostFinalizedEvent failed = finalized(workspace, Mode.TEST, PostFinalizedEvent.FAILED);
        PostFinalizedEvent canceled = finalized(workspace, Mode.TEST, PostFinalizedEvent.CANCELED);
        PostFinalizedEvent live = finalized(workspace, Mode.LIVE, PostFinalizedEvent.FAILED);
        PostFinalizedEvent otherWorkspace =
                finalized(ResourceIds.newId(IdPrefix.WORKSPACE), Mode.TEST, PostFinalizedEvent.FAILED);

        send(published, failed, live, otherWorkspace, canceled);

        await(
                "two deliveries succeeded",
                () -> deliveriesOf(endpoint.id()).stream()
                                .filter(row -> "succeeded".equals(row.get("status")))
                                .count()
                        == 2);
        Thread.sleep(500);
        List<Receiver.Request> requests = receiver.requests();
        assertThat(requests).hasSize(2);
        assertThat(requests.stream().map(PostFinalizedDeliveryTest::postIdOf).toList())
                .containsExactlyInAnyOrder(failed.post().id(), canceled.post().id());
        requests.forEach(request -> verified(request, endpoint.secret()));
    }

    @Test
    void aRedeliveredEventIsDeliveredOnceWithTheSameStableId() throws Exception {
        Receiver receiver = receiver();
        Registered endpoint = register(workspace, Mode.TEST, receiver.url(), "post.published");
        PostFinalizedEvent event = finalized(workspace, Mode.TEST, PostFinalizedEvent.PUBLISHED);

        send(event);
        send(event);

        receiver.awaitRequests(1, 20_000);
        Thread.sleep(1000);
        assertThat(receiver.requests()).hasSize(1);
        assertThat(deliveriesOf(endpoint.id())).hasSize(1);
        assertThat(receiver.requests().get(0).header("webhook-id"))
                .isEqualTo(dev.herald.webhooks.service.EventBodies.eventIdFor(event.eventId()));
    }

    @Test
    void everyEndpointOfTheTenantGetsItsOwnDeliveryOfTheSameEvent() throws Exception {
        Receiver first = receiver();
        Receiver second = receiver();
        Registered one = register(workspace, Mode.TEST, first.url(), "post.published");
        Registered two = register(workspace, Mode.TEST, second.url(), "post.published");

        send(finalized(workspace, Mode.TEST, PostFinalizedEvent.PUBLISHED));

        Receiver.Request toFirst = first.awaitRequests(1, 20_000).get(0);
        Receiver.Request toSecond = second.awaitRequests(1, 20_000).get(0);
        assertThat(toFirst.header("webhook-id")).isEqualTo(toSecond.header("webhook-id"));
        assertThat(toFirst.body()).isEqualTo(toSecond.body());
        // Each is signed with its own endpoint's secret only.
        verified(toFirst, one.secret());
        verified(toSecond, two.secret());
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> verified(toFirst, two.secret()))
                .isInstanceOf(WebhookVerifier.VerificationException.class);
    }

    @Test
    void aReceiverAnswering500TwiceIsRetriedWithTheSameIdAndBodyUntilItSucceeds() throws Exception {
        Receiver receiver =
                receiver().then(Answer.status(500), Answer.status(503).withBody("{\"busy\":true}"));
        Registered endpoint = register(workspace, Mode.TEST, receiver.url(), "post.partially_failed");

        send(finalized(workspace, Mode.TEST, PostFinalizedEvent.PARTIALLY_FAILED));

        List<Receiver.Request> requests = receiver.awaitRequests(3, 20_000);
        assertThat(requests).hasSize(3);
        assertThat(requests.stream()
                        .map(request -> request.header("webhook-id"))
                        .distinct())
                .hasSize(1);
        assertThat(requests.stream().map(Receiver.Request::bodyText).distinct()).hasSize(1);
        requests.forEach(request -> verified(request, endpoint.secret()));
        // The schedule's first two waits (0.3 s, jittered by up to 10 %) separate the attempts.
        assertThat(Duration.between(requests.get(0).at(), requests.get(1).at()))
                .isGreaterThanOrEqualTo(Duration.ofMillis(250));
        await(
                "the delivery succeeded",
                () -> "succeeded".equals(deliveriesOf(endpoint.id()).get(0).get("status")));
        Map<String, Object> delivery = deliveriesOf(endpoint.id()).get(0);
        assertThat(delivery)
                .containsEntry("attempts", 3)
                .containsEntry("last_response_status", 200)
                .containsEntry("last_error", null);
        assertThat(delivery.get("delivered_at")).isNotNull();
    }

    @Test
    void aReceiverThatNeverAnswersEndsFailedAfterTheLastAttempt() throws Exception {
        Receiver receiver = receiver().otherwise(Answer.never());
        Registered endpoint = register(workspace, Mode.TEST, receiver.url(), "post.failed");

        send(finalized(workspace, Mode.TEST, PostFinalizedEvent.FAILED));

        await("the delivery failed", () -> {
            List<Map<String, Object>> rows = deliveriesOf(endpoint.id());
            return !rows.isEmpty() && "failed".equals(rows.get(0).get("status"));
        });
        assertThat(receiver.requests()).hasSize(5);
        as(workspace, Mode.TEST)
                .queryParam("endpoint_id", endpoint.id())
                .queryParam("status", "failed")
                .get("/deliveries")
                .then()
                .statusCode(200)
                .body("data[0].status", equalTo("failed"))
                .body("data[0].attempts", equalTo(5))
                .body("data[0].last_response_status", equalTo(null))
                .body("data[0].last_error", equalTo("The endpoint did not answer within 2.0 s."))
                .body("data[0].next_attempt_at", equalTo(null));
    }

    @Test
    void api7_redirectsAreFailuresAndAreNeverFollowed() throws Exception {
        Receiver target = receiver();
        Receiver receiver =
                receiver().then(Answer.status(301).withHeader("Location", target.url()), Answer.status(400));
        Registered endpoint = register(workspace, Mode.TEST, receiver.url(), "post.published");

        send(finalized(workspace, Mode.TEST, PostFinalizedEvent.PUBLISHED));

        await("the delivery succeeded", () -> {
            List<Map<String, Object>> rows = deliveriesOf(endpoint.id());
            return !rows.isEmpty() && "succeeded".equals(rows.get(0).get("status"));
        });
        assertThat(receiver.requests()).hasSize(3);
        assertThat(target.requests()).isEmpty();
        assertThat(deliveriesOf(endpoint.id()).get(0)).containsEntry("attempts", 3);
    }

    @Test
    void aRetryAfterFromTheReceiverIsHonoured() throws Exception {
        Receiver receiver = receiver().then(Answer.status(503).withHeader("Retry-After", "1"));
        register(workspace, Mode.TEST, receiver.url(), "post.published");

        send(finalized(workspace, Mode.TEST, PostFinalizedEvent.PUBLISHED));

        List<Receiver.Request> requests = receiver.awaitRequests(2, 20_000);
        assertThat(requests).hasSize(2);
        // The schedule alone would have waited 0.3 s.
        assertThat(Duration.between(requests.get(0).at(), requests.get(1).at()))
                .isGreaterThanOrEqualTo(Duration.ofMillis(950));
    }

    @Test
    void aReceiverAnswering410GoneDisablesItsEndpoint() throws Exception {
        Receiver receiver = receiver().otherwise(Answer.status(410));
        Registered endpoint = register(workspace, Mode.TEST, receiver.url(), "post.published");

        send(finalized(workspace, Mode.TEST, PostFinalizedEvent.PUBLISHED));

        await(
                "the endpoint was disabled",
                () -> "disabled"
                        .equals(as(workspace, Mode.TEST)
                                .get("/webhooks/" + endpoint.id())
                                .then()
                                .extract()
                                .path("data.status")));
        as(workspace, Mode.TEST)
                .get("/webhooks/" + endpoint.id())
                .then()
                .body("data.disabled_reason", equalTo("endpoint_gone"));
        assertThat(deliveriesOf(endpoint.id()).get(0))
                .containsEntry("status", "failed")
                .containsEntry("attempts", 1)
                .containsEntry("last_response_status", 410);

        send(finalized(workspace, Mode.TEST, PostFinalizedEvent.PUBLISHED));
        Thread.sleep(1500);
        assertThat(receiver.requests()).hasSize(1);
        assertThat(deliveriesOf(endpoint.id())).hasSize(1);
    }

    @Test
    void aDisabledEndpointGetsNothingNewAndItsWaitingRetriesFail() throws Exception {
        Receiver receiver = receiver().otherwise(Answer.status(500));
        Registered endpoint = register(workspace, Mode.TEST, receiver.url(), "post.published");
        send(finalized(workspace, Mode.TEST, PostFinalizedEvent.PUBLISHED));
        receiver.awaitRequests(1, 20_000);

        as(workspace, Mode.TEST).delete("/webhooks/" + endpoint.id()).then().statusCode(200);
        send(finalized(workspace, Mode.TEST, PostFinalizedEvent.PUBLISHED));

        await(
                "the waiting delivery failed",
                () -> "failed".equals(deliveriesOf(endpoint.id()).get(0).get("status")));
        Thread.sleep(1500);
        assertThat(deliveriesOf(endpoint.id())).hasSize(1);
        int seen = receiver.requests().size();
        Thread.sleep(700);
        assertThat(receiver.requests()).hasSize(seen);
        assertThat((String) deliveriesOf(endpoint.id()).get(0).get("last_error"))
                .isIn("The endpoint was disabled.", "The endpoint is disabled.");
    }

    @Test
    void oneReceiverThatHangsDoesNotDelayAnother() throws Exception {
        Receiver slow = receiver().otherwise(Answer.never());
        Receiver fast = receiver();
        Registered hanging = register(workspace, Mode.TEST, slow.url(), "post.failed");
        register(workspace, Mode.TEST, fast.url(), "post.published");
        PostFinalizedEvent[] stuck = new PostFinalizedEvent[40];
        for (int i = 0; i < stuck.length; i++) {
            stuck[i] = finalized(workspace, Mode.TEST, PostFinalizedEvent.FAILED);
        }
        send(stuck);
        slow.awaitRequests(16, 20_000);
        // The hanging receiver has its share of attempts in flight (16), and 24 more deliveries are due.
        assertThat(leasedTo(hanging.id())).isLessThanOrEqualTo(16);

        Instant sent = Instant.now();
        send(finalized(workspace, Mode.TEST, PostFinalizedEvent.PUBLISHED));

        Receiver.Request arrived = fast.awaitRequests(1, 20_000).get(0);
        // Well inside the hanging receiver's 2 s timeout: its waiting deliveries took no place of the other one's.
        assertThat(Duration.between(sent, arrived.at())).isLessThan(Duration.ofMillis(1500));
        assertThat(leasedTo(hanging.id())).isLessThanOrEqualTo(16);
    }

    /** Attempts in flight to the endpoint (deliveries holding a live lease). */
    private static long leasedTo(String endpointId) throws Exception {
        return (Long) WebhooksTestSupport.rows(
                        "select count(*) as n from deliveries where endpoint_id = ? "
                                + "and lease_token is not null and lease_until > now()",
                        endpointId)
                .get(0)
                .get("n");
    }

    @Test
    void afterARotationEveryDeliveryIsSignedWithTheNewAndThePreviousSecret() throws Exception {
        Receiver receiver = receiver();
        Registered endpoint = register(workspace, Mode.TEST, receiver.url(), "post.published");
        String rotated = as(workspace, Mode.TEST)
                .post("/webhooks/" + endpoint.id() + "/rotate-secret")
                .then()
                .statusCode(200)
                .extract()
                .path("data.secret");

        send(finalized(workspace, Mode.TEST, PostFinalizedEvent.PUBLISHED));

        Receiver.Request request = receiver.awaitRequests(1, 20_000).get(0);
        assertThat(request.header("webhook-signature")).matches("^v1=[a-f0-9]{64} v1=[a-f0-9]{64}$");
        verified(request, endpoint.secret());
        verified(request, rotated);
        // The new secret signs first.
        String first = request.header("webhook-signature").split(" ")[0];
        assertThat(first)
                .isEqualTo(WebhookVerifier.sign(
                        rotated,
                        request.header("webhook-id"),
                        Long.parseLong(request.header("webhook-timestamp")),
                        request.body()));
    }

    @Test
    void aRotatedOutSecretStopsSigningWhenItExpires() throws Exception {
        Receiver receiver = receiver();
        Registered endpoint = register(workspace, Mode.TEST, receiver.url(), "post.published");
        String rotated = as(workspace, Mode.TEST)
                .post("/webhooks/" + endpoint.id() + "/rotate-secret")
                .then()
                .statusCode(200)
                .extract()
                .path("data.secret");
        WebhooksTestSupport.update(
                "update endpoint_secrets set expires_at = now() - interval '1 second' "
                        + "where endpoint_id = ? and expires_at is not null",
                endpoint.id());

        send(finalized(workspace, Mode.TEST, PostFinalizedEvent.PUBLISHED));

        Receiver.Request request = receiver.awaitRequests(1, 20_000).get(0);
        assertThat(request.header("webhook-signature")).matches("^v1=[a-f0-9]{64}$");
        verified(request, rotated);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> verified(request, endpoint.secret()))
                .isInstanceOf(WebhookVerifier.VerificationException.class);
    }

    @Test
    void aManualRetryOfAFailedDeliveryIsAttemptedAtOnce() throws Exception {
        Receiver receiver = receiver().otherwise(Answer.status(500));
        Registered endpoint = register(workspace, Mode.TEST, receiver.url(), "post.published");
        send(finalized(workspace, Mode.TEST, PostFinalizedEvent.PUBLISHED));
        await("the delivery failed", () -> {
            List<Map<String, Object>> rows = deliveriesOf(endpoint.id());
            return !rows.isEmpty() && "failed".equals(rows.get(0).get("status"));
        });
        String deliveryId = (String) deliveriesOf(endpoint.id()).get(0).get("id");
        String eventId = receiver.requests().get(0).header("webhook-id");
        assertThat(receiver.requests()).hasSize(5);

        // Failing once more ends failed again, after one attempt.
        as(workspace, Mode.TEST)
                .post("/deliveries/" + deliveryId + "/retry")
                .then()
                .statusCode(202)
                .body("data.id", equalTo(deliveryId))
                .body("data.status", equalTo("pending"));
        await(
                "the retry failed",
                () -> "failed".equals(deliveriesOf(endpoint.id()).get(0).get("status")));
        assertThat(receiver.requests()).hasSize(6);
        assertThat(deliveriesOf(endpoint.id()).get(0)).containsEntry("attempts", 6);

        // The receiver recovers: the next manual retry succeeds with the same event.
        receiver.otherwise(Answer.status(204));
        as(workspace, Mode.TEST)
                .post("/deliveries/" + deliveryId + "/retry")
                .then()
                .statusCode(202);
        await(
                "the retry succeeded",
                () -> "succeeded".equals(deliveriesOf(endpoint.id()).get(0).get("status")));
        Receiver.Request last = receiver.requests().get(6);
        assertThat(last.header("webhook-id")).isEqualTo(eventId);
        verified(last, endpoint.secret());
        as(workspace, Mode.TEST)
                .post("/deliveries/" + deliveryId + "/retry")
                .then()
                .statusCode(409)
                .body("error.code", equalTo("conflict"))
                .body("error.details.status", equalTo("succeeded"));
    }

    @Test
    void aTestEventIsSignedAndDeliveredToThatEndpointOnly() throws Exception {
        Receiver receiver = receiver();
        Receiver other = receiver();
        Registered endpoint = register(workspace, Mode.TEST, receiver.url(), "post.canceled");
        register(workspace, Mode.TEST, other.url(), "post.canceled");

        String deliveryId = as(workspace, Mode.TEST)
                .post("/webhooks/" + endpoint.id() + "/test")
                .then()
                .statusCode(202)
                .body("data.event_type", equalTo("webhook.test"))
                .body("data.endpoint_id", equalTo(endpoint.id()))
                .body("data.status", equalTo("pending"))
                .extract()
                .path("data.id");

        Receiver.Request request = receiver.awaitRequests(1, 20_000).get(0);
        String eventId = verified(request, endpoint.secret());
        JsonNode body = JSON.readTree(request.body());
        assertThat(body.get("type").asText()).isEqualTo("webhook.test");
        assertThat(body.get("id").asText()).isEqualTo(eventId);
        assertThat(body.get("data").get("endpoint_id").asText()).isEqualTo(endpoint.id());
        await(
                "the test delivery succeeded",
                () -> "succeeded"
                        .equals(as(workspace, Mode.TEST)
                                .queryParam("event_id", eventId)
                                .get("/deliveries")
                                .then()
                                .extract()
                                .path("data[0].status")));
        as(workspace, Mode.TEST)
                .queryParam("event_id", eventId)
                .get("/deliveries")
                .then()
                .body("data.size()", equalTo(1))
                .body("data[0].id", equalTo(deliveryId));
        Thread.sleep(300);
        assertThat(other.requests()).isEmpty();
    }

    @Test
    void theReceiversAnswerIsKeptToOneKibibyte() throws Exception {
        Receiver receiver = receiver().then(Answer.status(500).withBody("\u00e9".repeat(100_000)));
        Registered endpoint = register(workspace, Mode.TEST, receiver.url(), "post.published");

        send(finalized(workspace, Mode.TEST, PostFinalizedEvent.PUBLISHED));

        await("the first attempt failed", () -> {
            List<Map<String, Object>> rows = deliveriesOf(endpoint.id());
            return !rows.isEmpty() && Integer.valueOf(500).equals(rows.get(0).get("last_response_status"));
        });
        String kept = (String) deliveriesOf(endpoint.id()).get(0).get("last_response_body");
        assertThat(kept.getBytes(java.nio.charset.StandardCharsets.UTF_8).length)
                .isLessThanOrEqualTo(1024);
        assertThat(kept).isEqualTo("\u00e9".repeat(512));
    }

    @Test
    void aDeliveryWhoseSenderDiedIsTakenOverWhenItsLeaseLapses() throws Exception {
        Receiver receiver = receiver().then(Answer.never());
        Registered endpoint = register(workspace, Mode.TEST, receiver.url(), "post.published");
        send(finalized(workspace, Mode.TEST, PostFinalizedEvent.PUBLISHED));
        receiver.awaitRequests(1, 20_000);
        // As if the sender had died mid-attempt: its lease lapses (the stored row still names it).
        WebhooksTestSupport.update(
                "update deliveries set lease_until = now() - interval '1 second', due_at = now() - interval '1 second' "
                        + "where endpoint_id = ?",
                endpoint.id());

        List<Receiver.Request> requests = receiver.awaitRequests(2, 20_000);
        assertThat(requests).hasSize(2);
        assertThat(requests.get(1).header("webhook-id"))
                .isEqualTo(requests.get(0).header("webhook-id"));
        await(
                "the taken-over delivery succeeded",
                () -> "succeeded".equals(deliveriesOf(endpoint.id()).get(0).get("status")));
        // The first sender's late outcome (its timeout) cannot overwrite the taken-over attempt's: its lease is gone.
        Thread.sleep(2500);
        assertThat(deliveriesOf(endpoint.id()).get(0))
                .containsEntry("status", "succeeded")
                .containsEntry("attempts", 2);
    }

    @Test
    void unreadableOrForeignEventsAreSkippedAndTheNextOnesStillArrive() throws Exception {
        Receiver receiver = receiver();
        register(workspace, Mode.TEST, receiver.url(), "post.published");
        sendRaw("x", "not json");
        sendRaw(
                "x",
                "{\"event_id\":\"evt_1\",\"type\":\"post.accepted\",\"workspace_id\":\"" + workspace
                        + "\",\"mode\":\"test\",\"post\":{\"id\":\"p\"}}");
        sendRaw("x", "{\"type\":\"post.published\"}");
        PostFinalizedEvent event = finalized(workspace, Mode.TEST, PostFinalizedEvent.PUBLISHED);
        send(event);

        Receiver.Request request = receiver.awaitRequests(1, 20_000).get(0);
        assertThat(JSON.readTree(request.body()).get("data").get("id").asText())
                .isEqualTo(event.post().id());
        Thread.sleep(500);
        assertThat(receiver.requests()).hasSize(1);
    }
}
