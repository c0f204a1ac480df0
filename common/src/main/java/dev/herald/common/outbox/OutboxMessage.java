package dev.herald.common.outbox;

/** An event waiting in a service's outbox table: where it goes, its key, and its JSON body. */
public record OutboxMessage(long id, String eventId, String topic, String messageKey, String payload) {
}
