package dev.herald.webhooks.messaging;

import static dev.herald.webhooks.support.WebhooksTestSupport.JSON;
import static dev.herald.webhooks.support.WebhooksTestSupport.accountEvent;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.common.auth.Mode;
import dev.herald.common.events.AccountEvent;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.common.wire.Account;
import dev.herald.common.wire.WebhookEventTypes;
import dev.herald.webhooks.repository.EventStatements.IncomingEvent;
import dev.herald.webhooks.service.EventBodies;
import org.junit.jupiter.api.Test;

/** Which account events become webhook events, and what a record must hold to be one (no broker, no database). */
class AccountEventConsumerTest {
    private static final String WORKSPACE = ResourceIds.newId(IdPrefix.WORKSPACE);
    private static final String ACCOUNT = ResourceIds.newId(IdPrefix.ACCOUNT);

    // Reading needs no intake: nothing is stored here.
    private final AccountEventConsumer consumer = new AccountEventConsumer(new EventBodies(JSON), null, JSON);

    private static String json(AccountEvent event) throws Exception {
        return JSON.writeValueAsString(event);
    }

    /** The event with another id, workspace and account. */
    private static AccountEvent changed(AccountEvent event, String eventId, String workspaceId, Account account) {
        return new AccountEvent(
                eventId,
                event.type(),
                event.occurredAt(),
                workspaceId,
                event.mode(),
                account,
                event.previousProfileId(),
                event.reconnectUrl());
    }

    @Test
    void onlyReauthRequiredDisconnectedAndReconnectedBecomeWebhookEvents() throws Exception {
        for (String type : WebhookEventTypes.ACCOUNT) {
            AccountEvent event = accountEvent(WORKSPACE, Mode.LIVE, ACCOUNT, type, null);
            IncomingEvent incoming = consumer.read(json(event), null).orElseThrow();
            assertThat(incoming.type()).isEqualTo(type);
            assertThat(incoming.sourceEventId()).isEqualTo(event.eventId());
            assertThat(incoming.eventId()).isEqualTo(EventBodies.eventIdFor(event.eventId()));
        }
        for (String internal : new String[] {AccountEvent.CONNECTED, AccountEvent.REASSIGNED}) {
            assertThat(consumer.read(json(accountEvent(WORKSPACE, Mode.LIVE, ACCOUNT, internal, null)), null))
                    .as(internal)
                    .isEmpty();
        }
    }

    @Test
    void theBodyCarriesTheAccountAndTheReconnectUrlAsTheEventHadThem() throws Exception {
        AccountEvent event = accountEvent(
                WORKSPACE, Mode.TEST, ACCOUNT, AccountEvent.DISCONNECTED, "https://herald.example.com/connect/x");

        IncomingEvent incoming = consumer.read(json(event), "00-trace").orElseThrow();

        var body = JSON.readTree(incoming.payload());
        assertThat(body.get("id").asText()).isEqualTo(incoming.eventId());
        assertThat(body.get("mode").asText()).isEqualTo("test");
        assertThat(body.at("/data/account/id").asText()).isEqualTo(ACCOUNT);
        assertThat(body.at("/data/reconnect_url").asText()).isEqualTo("https://herald.example.com/connect/x");
        assertThat(incoming.traceParent()).isEqualTo("00-trace");
        assertThat(incoming.createdAt()).isEqualTo(event.occurredAt());
    }

    @Test
    void anUnreadableOrIncompleteRecordIsSkipped() throws Exception {
        AccountEvent good = accountEvent(WORKSPACE, Mode.LIVE, ACCOUNT, AccountEvent.REAUTH_REQUIRED, "https://x");
        assertThat(consumer.read("{not json", null)).isEmpty();
        assertThat(consumer.read("[1]", null)).isEmpty();
        assertThat(consumer.read("null", null)).isEmpty();
        assertThat(consumer.read(null, null)).isEmpty();
        assertThat(consumer.read(json(changed(good, good.eventId(), null, good.account())), null))
                .isEmpty();
        assertThat(consumer.read(json(changed(good, "x".repeat(201), WORKSPACE, good.account())), null))
                .isEmpty();
        assertThat(consumer.read(json(changed(good, good.eventId(), WORKSPACE, null)), null))
                .isEmpty();
        assertThat(consumer.read(json(good).replace("\"mode\":\"live\"", "\"mode\":\"staging\""), null))
                .isEmpty();
        assertThat(consumer.read(json(good), null)).isPresent();
    }
}
