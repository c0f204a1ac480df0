package dev.herald.webhooks.model;

import java.time.Instant;

/**
 * How an attempt ended, as it is written to its delivery (under the attempt's lease): {@code status} is
 * {@code pending} with {@code nextAttemptAt} (a retry), {@code succeeded} or {@code failed}. {@code endpointGone}
 * says the receiver answered 410 Gone, which disables the endpoint. {@code attempted} is false when nothing was sent
 * (the endpoint had been disabled): the attempt the claim counted is taken back.
 */
public record AttemptOutcome(
        ClaimedDelivery delivery,
        String status,
        Instant nextAttemptAt,
        Integer responseStatus,
        String error,
        String responseBody,
        Instant at,
        boolean endpointGone,
        boolean attempted) {}
