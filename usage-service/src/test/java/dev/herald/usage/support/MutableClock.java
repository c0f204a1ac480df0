package dev.herald.usage.support;

import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The application's clock in tests (it replaces common's default {@link Clock} bean): the system clock
 * until a test sets a moment, so tests can stand at a period's edge and step over it.
 */
@Singleton
public class MutableClock extends Clock {
    private volatile Instant fixed;

    public void set(Instant instant) {
        fixed = instant;
    }

    public void advance(Duration duration) {
        fixed = instant().plus(duration);
    }

    public void reset() {
        fixed = null;
    }

    @Override
    public Instant instant() {
        Instant now = fixed;
        return now == null ? Instant.now() : now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
