package dev.herald.webhooks.model;

import java.util.List;
import java.util.UUID;

/**
 * A delivery this sender holds the lease of, with what its attempt needs: the stored body, the endpoint's URL and
 * status, and its sealed secrets that still sign (current first). {@code attempts} already counts this attempt.
 * {@code traceParent} is the trace its event came with (null when none): the attempt is a span of it.
 */
public record ClaimedDelivery(
        String id,
        String eventId,
        String eventType,
        String endpointId,
        int attempts,
        boolean finalAttempt,
        UUID leaseToken,
        String payload,
        String url,
        String endpointStatus,
        List<String> sealedSecrets,
        String traceParent) {}
