package dev.herald.common.outbox;

/**
 * An event waiting in a service's outbox table: where it goes, its key, its JSON body, and the W3C traceparent of
 * the request (or message) that wrote it, null when none was traced.
 */
public record OutboxMessage(
        long id, String eventId, String topic, String messageKey, String payload, String traceParent) {}
