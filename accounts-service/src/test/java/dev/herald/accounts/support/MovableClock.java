package dev.herald.accounts.support;

import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The service's clock in tests: the system's time, moved by an offset a test sets (the health job's ten minutes of
 * backoff run in milliseconds). Replaces common's default {@code Clock}; a test that moves it puts it back.
 */
@Singleton
public class MovableClock extends Clock {
    private final AtomicReference<Duration> offset = new AtomicReference<>(Duration.ZERO);

    /** Moves the clock so that it reads {@code now} now. */
    public void set(Instant now) {
        offset.set(Duration.between(Instant.now(), now));
    }

    public void advance(Duration by) {
        offset.updateAndGet(current -> current.plus(by));
    }

    public void reset() {
        offset.set(Duration.ZERO);
    }

    @Override
    public Instant instant() {
        return Instant.now().plus(offset.get());
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
