package dev.herald.delivery.messaging;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.herald.common.events.AccountEvent;
import dev.herald.common.messaging.EventRetry;
import dev.herald.common.time.Timestamps;
import dev.herald.delivery.repository.HeldAccountStatements;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.time.Clock;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * {@code account.events} (consumer group {@code delivery-worker-account-holds}), for the held accounts
 * ({@link HeldAccountStatements}): {@code account.reauth_required} holds the account's deliveries; {@code
 * account.reconnected}, {@code account.connected} and {@code account.disconnected} end the hold and make its held
 * deliveries due now. Other types say nothing about delivery and are skipped.
 */
@ApplicationScoped
public class AccountEventConsumer {
    private static final Logger LOG = Logger.getLogger(AccountEventConsumer.class);

    private final HeldAccountStatements heldAccounts;
    private final Clock clock;
    private final ObjectReader events;

    public AccountEventConsumer(HeldAccountStatements heldAccounts, Clock clock, ObjectMapper mapper) {
        this.heldAccounts = heldAccounts;
        this.clock = clock;
        // Tolerant of fields added to the event later: a newer accounts-service must not stop an older worker.
        this.events = mapper.readerFor(AccountEvent.class).without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    }

    @Incoming("account-events")
    public Uni<Void> consume(String payload) {
        AccountEvent event;
        try {
            event = events.readValue(payload);
        } catch (IOException e) {
            // A message nobody can read would otherwise stop the channel for good; it is logged and skipped.
            LOG.errorf("skipping an unreadable account event: %s", e.getMessage());
            return Uni.createFrom().voidItem();
        }
        if (event == null
                || event.eventId() == null
                || event.account() == null
                || event.account().id() == null
                || event.workspaceId() == null
                || event.mode() == null) {
            LOG.errorf(
                    "skipping account event %s: no event_id, account, workspace_id or mode",
                    event == null ? null : event.eventId());
            return Uni.createFrom().voidItem();
        }
        String accountId = event.account().id();
        String description = event.type() + " " + event.eventId();
        return switch (event.type()) {
            case AccountEvent.REAUTH_REQUIRED ->
                EventRetry.untilApplied(
                                description,
                                () -> heldAccounts.hold(
                                        event.eventId(),
                                        accountId,
                                        event.workspaceId(),
                                        event.mode(),
                                        event.reconnectUrl(),
                                        event.occurredAt() != null ? event.occurredAt() : Timestamps.now(clock)))
                        .invoke(() ->
                                LOG.infof("account %s needs re-authorization: its deliveries are held", accountId));
            case AccountEvent.RECONNECTED, AccountEvent.CONNECTED, AccountEvent.DISCONNECTED ->
                EventRetry.untilApplied(
                                description,
                                () -> heldAccounts.release(event.eventId(), accountId, Timestamps.now(clock)))
                        .invoke(due -> {
                            if (due > 0) {
                                LOG.infof(
                                        "account %s: %s makes %d held deliveries due now",
                                        accountId, event.type(), due);
                            }
                        })
                        .replaceWithVoid();
            default -> Uni.createFrom().voidItem();
        };
    }
}
