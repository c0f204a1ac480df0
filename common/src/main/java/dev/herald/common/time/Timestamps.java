package dev.herald.common.time;

import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Instants as Herald stores and sends them: UTC, microsecond precision (what PostgreSQL keeps, so a
 * value read back equals the value written), RFC 3339 with an explicit offset on the way in.
 */
public final class Timestamps {
    private Timestamps() {}

    public static Instant now(Clock clock) {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }

    /**
     * RFC 3339's date-time (section 5.6): seconds required, any fraction, an offset of {@code Z} or {@code +hh:mm}.
     * {@code OffsetDateTime.parse} alone also took ISO forms RFC 3339 does not have ({@code T04:04Z} without seconds,
     * an offset with seconds such as {@code +05:30:45}).
     */
    private static final Pattern RFC_3339 =
            Pattern.compile("^\\d{4}-\\d{2}-\\d{2}[Tt]\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?([Zz]|[+-]\\d{2}:\\d{2})$");

    /**
     * Parses an RFC 3339 timestamp that carries an explicit offset ({@code Z} or {@code +hh:mm}). Herald keeps
     * microseconds, as PostgreSQL does: finer digits are dropped.
     */
    public static Optional<Instant> parseRfc3339(String text) {
        if (text == null || !RFC_3339.matcher(text).matches()) {
            return Optional.empty();
        }
        try {
            return Optional.of(OffsetDateTime.parse(text).toInstant().truncatedTo(ChronoUnit.MICROS));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
