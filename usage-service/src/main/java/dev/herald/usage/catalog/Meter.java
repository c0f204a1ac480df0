package dev.herald.usage.catalog;

import dev.herald.common.wire.UsageReservation;
import java.util.Optional;

/** The monthly meters usage-service keeps and reserves against (API requests are counted by the gateway). */
public enum Meter {
    PUBLICATIONS(UsageReservation.METER_PUBLICATIONS),
    MEDIA_BYTES(UsageReservation.METER_MEDIA_BYTES),
    COMMENT_REQUESTS(UsageReservation.METER_COMMENT_REQUESTS),
    NEW_CONNECTIONS(UsageReservation.METER_NEW_CONNECTIONS);

    private final String wireName;

    Meter(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    /** How far the spec lets media's last transfer of a period go past the allowance: one file of 128 MiB. */
    public static final long MEDIA_OVERAGE_BYTES = 128L * 1024 * 1024;

    /**
     * Whether {@code units} more fit when {@code counted} (used plus reserved) are already taken of {@code limit}.
     * Media may overshoot by {@link #MEDIA_OVERAGE_BYTES} once, with the transfer that begins while something is
     * left; other meters never overshoot.
     */
    public boolean admits(long counted, long units, long limit) {
        if (counted + units <= limit) {
            return true;
        }
        return this == MEDIA_BYTES && counted < limit && counted + units - limit <= MEDIA_OVERAGE_BYTES;
    }

    /** This meter's monthly allowance; null when unlimited. */
    public Long limitIn(Allowances allowances) {
        return switch (this) {
            case PUBLICATIONS -> allowances.publications();
            case MEDIA_BYTES -> allowances.mediaBytes();
            case COMMENT_REQUESTS -> allowances.commentRequests();
            case NEW_CONNECTIONS -> allowances.newConnections();
        };
    }

    public static Optional<Meter> fromWire(String value) {
        for (Meter meter : values()) {
            if (meter.wireName.equals(value)) {
                return Optional.of(meter);
            }
        }
        return Optional.empty();
    }
}
