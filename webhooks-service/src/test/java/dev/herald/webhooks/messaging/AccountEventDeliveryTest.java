package dev.herald.webhooks.messaging;

import static dev.herald.webhooks.support.WebhooksTestSupport.JSON;
import static dev.herald.webhooks.support.WebhooksTestSupport.accountEvent;
import static dev.herald.webhooks.support.WebhooksTestSupport.as;
import static dev.herald.webhooks.support.WebhooksTestSupport.await;
import static dev.herald.webhooks.support.WebhooksTestSupport.deliveriesOf;
import static dev.herald.webhooks.support.WebhooksTestSupport.documentedBody;
import static dev.herald.webhooks.support.WebhooksTestSupport.register;
import static dev.herald.webhooks.support.WebhooksTestSupport.rows;
import static dev.herald.webhooks.support.WebhooksTestSupport.sendAccount;
import static dev.herald.webhooks.support.WebhooksTestSupport.sendRaw;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import com.fasterxml.jackson.databind.JsonNode;
import dev.herald.common.auth.Mode;
import dev.herald.common.events.AccountEvent;
import dev.herald.common.events.Topics;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.openapi.OpenApiDocument;
import dev.herald.sdk.WebhookVerifier;
import dev.herald.testing.RealInfrastructure;
import dev.herald.webhooks.service.EventBodies;
import dev.herald.webhooks.support.Receiver;
import dev.herald.webhooks.support.WebhooksTestSupport;
import dev.herald.webhooks.support.WebhooksTestSupport.Registered;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * account.events in, account.* webhook deliveries out, through the real broker and database. An account's events
 * share a partition (keyed by account id) and are applied in order, so once a later event's delivery has arrived,
 * every earlier record has been applied: that is how "nothing more was sent" is waited for.
 */
@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = WebhooksTestSupport.DATABASE))
class AccountEventDeliveryTest {
    private static final String RECONNECT_URL = "https://herald.example.com/connect/reconnect/eyJhIjoxfQ.c2ln";

    private final String workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
    private final String account = ResourceIds.newId(IdPrefix.ACCOUNT);
    private final List<Receiver> receivers = new ArrayList<>();

    private Receiver receiver() throws Exception {
        Receiver receiver = new Receiver();
        receivers.add(receiver);
        return receiver;
    }

    @AfterEach
    void closeReceivers() {
        receivers.forEach(Receiver::close);
    }

    private static JsonNode body(Receiver.Request request) {
        try {
            return JSON.readTree(request.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void aReauthRequiredEventArrivesSignedWithTheAccountAndItsReconnectUrl() throws Exception {
        Receiver receiver = receiver();
        Registered endpoint = register(workspace, Mode.LIVE, receiver.url(), "account.reauth_required");
        AccountEvent event = accountEvent(workspace, Mode.LIVE, account, AccountEvent.REAUTH_REQUIRED, RECONNECT_URL);

        sendAccount(event);

        Receiver.Request request = receiver.awaitRequests(1, 20_000).get(0);
        assertThat(new WebhookVerifier(List.of(endpoint.secret())).verify(request.body(), request.headers()))
                .isEqualTo(EventBodies.eventIdFor(event.eventId()));
        JsonNode body = body(request);
        assertThat(OpenApiDocument.problems(documentedBody("account.reauth_required"), body))
                .isEmpty();
        assertThat(body.fieldNames()).toIterable().containsExactly("id", "type", "created_at", "mode", "data");
        assertThat(body.get("type").asText()).isEqualTo("account.reauth_required");
        assertThat(body.get("mode").asText()).isEqualTo("live");
        assertThat(Instant.parse(body.get("created_at").asText())).isEqualTo(event.occurredAt());
        JsonNode data = body.get("data");
        assertThat(data.fieldNames()).toIterable().containsExactly("account", "reconnect_url");
        assertThat(data.get("reconnect_url").asText()).isEqualTo(RECONNECT_URL);
        assertThat(data.get("account").get("id").asText()).isEqualTo(account);
        assertThat(data.get("account").get("status").asText()).isEqualTo("connected");
        assertThat(data.at("/account/health/status").asText()).isEqualTo("reauth_required");
        assertThat(data.at("/account/health/reason").asText()).startsWith("invalid_grant");

        await(
                "the delivery succeeded",
                () -> "succeeded".equals(deliveriesOf(endpoint.id()).get(0).get("status")));
        as(workspace, Mode.LIVE)
                .queryParam("endpoint_id", endpoint.id())
                .get("/deliveries")
                .then()
                .statusCode(200)
                .body("data.size()", equalTo(1))
                .body("data[0].event_id", equalTo(body.get("id").asText()))
                .body("data[0].event_type", equalTo("account.reauth_required"))
                .body("data[0].status", equalTo("succeeded"));
    }

    @Test
    void aRedeliveredEventMakesNoSecondEventAndConnectedOrReassignedMakeNone() throws Exception {
        Receiver receiver = receiver();
        Registered endpoint = register(
                workspace,
                Mode.TEST,
                receiver.url(),
                "account.reauth_required",
                "account.disconnected",
                "account.reconnected");
        AccountEvent connected = accountEvent(workspace, Mode.TEST, account, AccountEvent.CONNECTED, null);
        AccountEvent reassigned = accountEvent(workspace, Mode.TEST, account, AccountEvent.REASSIGNED, null);
        AccountEvent reauth = accountEvent(workspace, Mode.TEST, account, AccountEvent.REAUTH_REQUIRED, RECONNECT_URL);
        AccountEvent disconnected =
                accountEvent(workspace, Mode.TEST, account, AccountEvent.DISCONNECTED, RECONNECT_URL + "2");

        sendAccount(connected, reassigned, reauth, reauth);
        sendRaw(Topics.ACCOUNT_EVENTS, account, "{not json");
        sendAccount(disconnected);

        List<Receiver.Request> requests = receiver.awaitRequests(2, 20_000);
        Thread.sleep(500);
        assertThat(receiver.requests()).hasSize(2);
        assertThat(requests.stream().map(request -> body(request).get("type").asText()))
                .containsExactlyInAnyOrder("account.reauth_required", "account.disconnected");
        JsonNode gone = requests.stream()
                .map(AccountEventDeliveryTest::body)
                .filter(body -> body.get("type").asText().equals("account.disconnected"))
                .findFirst()
                .orElseThrow();
        assertThat(OpenApiDocument.problems(documentedBody("account.disconnected"), gone))
                .isEmpty();
        assertThat(gone.at("/data/reconnect_url").asText()).isEqualTo(RECONNECT_URL + "2");
        assertThat(gone.at("/data/account/status").asText()).isEqualTo("disconnected");
        assertThat(deliveriesOf(endpoint.id())).hasSize(2);
        assertThat(rows("select type from events where workspace_id = ?", workspace).stream()
                        .map(row -> row.get("type")))
                .containsExactlyInAnyOrder("account.reauth_required", "account.disconnected");
    }

    @Test
    void onlyEndpointsOfTheWorkspaceAndModeSubscribedToTheEventGetIt() throws Exception {
        Receiver reauthOnly = receiver();
        Receiver reconnectedOnly = receiver();
        Receiver otherMode = receiver();
        register(workspace, Mode.TEST, reauthOnly.url(), "account.reauth_required");
        register(workspace, Mode.TEST, reconnectedOnly.url(), "post.published", "account.reconnected");
        register(workspace, Mode.LIVE, otherMode.url(), "account.reauth_required", "account.reconnected");
        AccountEvent reauth = accountEvent(workspace, Mode.TEST, account, AccountEvent.REAUTH_REQUIRED, RECONNECT_URL);
        AccountEvent reconnected = accountEvent(workspace, Mode.TEST, account, AccountEvent.RECONNECTED, null);
        AccountEvent otherWorkspace = accountEvent(
                ResourceIds.newId(IdPrefix.WORKSPACE), Mode.TEST, account, AccountEvent.REAUTH_REQUIRED, RECONNECT_URL);

        sendAccount(otherWorkspace, reauth, reconnected);

        JsonNode reauthBody = body(reauthOnly.awaitRequests(1, 20_000).get(0));
        JsonNode reconnectedBody = body(reconnectedOnly.awaitRequests(1, 20_000).get(0));
        Thread.sleep(500);
        assertThat(reauthOnly.requests()).hasSize(1);
        assertThat(reconnectedOnly.requests()).hasSize(1);
        assertThat(otherMode.requests()).isEmpty();
        assertThat(reauthBody.get("id").asText()).isEqualTo(EventBodies.eventIdFor(reauth.eventId()));
        assertThat(reconnectedBody.get("type").asText()).isEqualTo("account.reconnected");
        assertThat(OpenApiDocument.problems(documentedBody("account.reconnected"), reconnectedBody))
                .isEmpty();
        assertThat(reconnectedBody.get("data").has("reconnect_url")).isFalse();
        assertThat(reconnectedBody.at("/data/account/health/status").asText()).isEqualTo("healthy");
    }
}
