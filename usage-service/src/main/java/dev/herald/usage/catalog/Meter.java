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
