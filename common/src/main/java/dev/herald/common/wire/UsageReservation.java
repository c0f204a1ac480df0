package dev.herald.common.wire;

import java.time.Instant;

/**
 * A reservation of units of a monthly meter, made by a service before it accepts work (usage-service's
 * {@code POST /internal/reservations}). {@code id} is the caller's own id, unique per workspace and mode.
 * {@code period} is where the units are reserved; {@code consumedPeriod} where they were counted as used
 * (null unless consumed).
 */
public record UsageReservation(
        String id,
        String meter,
        long units,
        String status,
        UsagePeriod period,
        UsagePeriod consumedPeriod,
        Instant createdAt,
        Instant updatedAt) {
    public static final String METER_PUBLICATIONS = "publications";
    public static final String METER_MEDIA_BYTES = "media_bytes";
    public static final String METER_COMMENT_REQUESTS = "comment_requests";
    public static final String METER_NEW_CONNECTIONS = "new_connections";

    public static final String STATUS_RESERVED = "reserved";
    public static final String STATUS_CONSUMED = "consumed";
    public static final String STATUS_RELEASED = "released";

    /**
     * The id of the media-bytes reservation of one destination (post and account): one per destination however
     * often its upload is attempted, so the destination is charged once, for its largest transfer.
     */
    public static String mediaBytesId(String postId, String accountId) {
        return "media-" + postId + "-" + accountId;
    }

    /** The id of the publication reservation that a post's target holds: one per post and account. */
    public static String publicationId(String postId, String accountId) {
        return postId + "-" + accountId;
    }
}
