package dev.herald.common.wire;

import java.time.Instant;

/**
 * A webhook delivery record ({@code GET /deliveries}): one event to one endpoint. {@code status} is
 * {@link #PENDING} (waiting for {@code next_attempt_at}, or an attempt in flight), {@link #SUCCEEDED} or
 * {@link #FAILED}. {@code last_response_body} is at most 1 KiB of the receiver's last answer.
 */
public record WebhookDelivery(
        String id,
        String eventId,
        String eventType,
        String endpointId,
        String status,
        int attempts,
        Integer lastResponseStatus,
        String lastError,
        String lastResponseBody,
        Instant nextAttemptAt,
        Instant createdAt,
        Instant updatedAt,
        Instant deliveredAt) {
    public static final String PENDING = "pending";
    public static final String SUCCEEDED = "succeeded";
    public static final String FAILED = "failed";
}
