package dev.herald.common.wire;

import java.time.Instant;

/** A usage period: {@code start} inclusive, {@code end} exclusive (the moment the allowance resets). */
public record UsagePeriod(Instant start, Instant end) {
    public boolean contains(Instant instant) {
        return !instant.isBefore(start) && instant.isBefore(end);
    }
}
