package dev.herald.delivery.model;

/** Where a target's delivery stands in the worker's {@code deliveries} table (see V1__delivery.sql). */
public final class DeliveryStatus {
    /** Waiting for its {@code next_attempt_at}. */
    public static final String PENDING = "pending";
    /** Leased by a worker; claimable again once the lease lapses. */
    public static final String PUBLISHING = "publishing";

    public static final String PUBLISHED = "published";
    public static final String FAILED = "failed";
    /** Final: the provider's answer to the last attempt is unknown and no attempt is left to learn it. */
    public static final String UNCERTAIN = "uncertain";

    private DeliveryStatus() {}
}
