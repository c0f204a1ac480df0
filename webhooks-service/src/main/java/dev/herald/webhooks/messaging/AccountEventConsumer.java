package dev.herald.webhooks.messaging;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.herald.common.events.AccountEvent;
import dev.herald.common.tracing.TraceParents;
import dev.herald.common.wire.AccountEventData;
import dev.herald.common.wire.WebhookEventTypes;
import dev.herald.webhooks.repository.EventStatements.IncomingEvent;
import dev.herald.webhooks.service.EventBodies;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * {@code account.events} (consumer group {@code webhooks-service-accounts}): {@code account.reauth_required},
 * {@code account.disconnected} and {@code account.reconnected} become webhook events with {@link AccountEventData}
 * (the account, and the reconnect link accounts-service put in the event), one per source event with a stable id,
 * stored like {@link PostFinalizedConsumer}'s: deduplicated by the source event id, one transaction per batch retried
 * until applied. The other types ({@code account.connected}, {@code account.reassigned}) are not webhook events and
 * are passed over; a record that cannot be read is logged and skipped.
 */
@ApplicationScoped
public class AccountEventConsumer {
    private static final Logger LOG = Logger.getLogger(AccountEventConsumer.class);
    private static final int MAX_ID_LENGTH = 200;

    private final EventBodies bodies;
    private final EventIntake intake;
    private final ObjectMapper mapper;
    private final ObjectReader reader;

    public AccountEventConsumer(EventBodies bodies, EventIntake intake, ObjectMapper mapper) {
        this.bodies = bodies;
        this.intake = intake;
        this.mapper = mapper;
        // Tolerant of fields a newer accounts-service adds.
        this.reader = mapper.readerFor(AccountEvent.class).without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    }

    @Incoming("account-events")
    public Uni<Void> consume(ConsumerRecords<String, String> records) {
        List<IncomingEvent> batch = new ArrayList<>();
        for (ConsumerRecord<String, String> record : records) {
            read(record.value(), TraceParents.header(record.headers())).ifPresent(batch::add);
        }
        return intake.store("account events", batch);
    }

    /** The event as a webhook event; empty for a type receivers are not sent, or (logged) one that is unusable. */
    Optional<IncomingEvent> read(String payload, String traceParent) {
        AccountEvent event;
        try {
            event = payload == null ? null : reader.readValue(payload);
        } catch (IOException e) {
            LOG.errorf("skipping an unreadable account event: %s", e.getMessage());
            return Optional.empty();
        }
        if (event == null || !WebhookEventTypes.ACCOUNT.contains(event.type())) {
            return Optional.empty();
        }
        if (event.eventId() == null
                || event.eventId().isBlank()
                || event.eventId().length() > MAX_ID_LENGTH
                || event.workspaceId() == null
                || event.workspaceId().isBlank()
                || event.workspaceId().length() > MAX_ID_LENGTH
                || event.mode() == null
                || event.occurredAt() == null
                || event.account() == null
                || event.account().id() == null) {
            LOG.errorf("skipping account event %s: no usable id, workspace, mode, time or account", event.eventId());
            return Optional.empty();
        }
        String id = EventBodies.eventIdFor(event.eventId());
        AccountEventData data = new AccountEventData(event.account(), event.reconnectUrl());
        return Optional.of(new IncomingEvent(
                event.eventId(),
                id,
                event.workspaceId(),
                event.mode(),
                event.type(),
                bodies.body(id, event.type(), event.occurredAt(), event.mode(), mapper.valueToTree(data)),
                event.occurredAt(),
                traceParent));
    }
}
