package dev.herald.common.time;

import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

/**
 * Instants as Herald stores and sends them: UTC, microsecond precision (what PostgreSQL keeps, so a
 * value read back equals the value written), RFC 3339 with an explicit offset on the way in.
 */
public final class Timestamps {
    private Timestamps() {
    }

    public static Instant now(Clock clock) {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }

    /** Parses an RFC 3339 timestamp that carries an explicit offset ({@code Z} or {@code +hh:mm}). */
    public static Optional<Instant> parseRfc3339(String text) {
        if (text == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(OffsetDateTime.parse(text).toInstant().truncatedTo(ChronoUnit.MICROS));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
