package dev.herald.webhooks.service;

import dev.herald.webhooks.config.WebhooksConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;

/**
 * When a failed delivery is attempted again (DESIGN section 3, Svix's schedule): after the n-th failed attempt,
 * wait the n-th entry of {@code herald.webhooks.retry-schedule} scaled by a random factor between 0.9 and 1.1
 * (so the deliveries of one outage do not all come back at once); after the last entry is used, the next failure
 * is final. A receiver's {@code Retry-After} (seconds or an HTTP date) is honoured when it asks for longer, up to
 * the schedule's longest wait.
 */
@ApplicationScoped
public class RetrySchedule {
    private final List<Duration> waits;
    private final Duration longest;
    private final DoubleSupplier random;

    @Inject
    public RetrySchedule(WebhooksConfig config) {
        this(config.retrySchedule(), () -> ThreadLocalRandom.current().nextDouble());
    }

    RetrySchedule(List<Duration> waits, DoubleSupplier random) {
        if (waits.stream().anyMatch(wait -> wait.isNegative())) {
            throw new IllegalStateException("herald.webhooks.retry-schedule has a negative wait");
        }
        this.waits = List.copyOf(waits);
        this.longest = waits.stream().max(Duration::compareTo).orElse(Duration.ZERO);
        this.random = random;
    }

    /** Attempts a delivery gets at most: one, plus one per wait. */
    public int maxAttempts() {
        return waits.size() + 1;
    }

    /**
     * The wait after failed attempt number {@code attempt} (1-based), or empty when that attempt was the last.
     * {@code retryAfter} is the receiver's ask, if any.
     */
    public Optional<Duration> after(int attempt, Optional<Duration> retryAfter) {
        if (attempt < 1 || attempt > waits.size()) {
            return Optional.empty();
        }
        long base = waits.get(attempt - 1).toMillis();
        Duration wait = Duration.ofMillis(Math.round(base * (0.9 + 0.2 * random.getAsDouble())));
        if (retryAfter.isPresent() && retryAfter.get().compareTo(wait) > 0) {
            wait = retryAfter.get().compareTo(longest) > 0 ? longest : retryAfter.get();
        }
        return Optional.of(wait);
    }

    /** Reads a Retry-After value: delay seconds or an HTTP date; empty when absent or unreadable. */
    public static Optional<Duration> parseRetryAfter(String value, Instant now) {
        if (value == null || value.isBlank()) {
            return Optional.empty();
        }
        String text = value.trim();
        if (text.chars().allMatch(Character::isDigit) && text.length() <= 9) {
            return Optional.of(Duration.ofSeconds(Long.parseLong(text)));
        }
        try {
            Instant at = ZonedDateTime.parse(text, DateTimeFormatter.RFC_1123_DATE_TIME)
                    .toInstant();
            return Optional.of(at.isAfter(now) ? Duration.between(now, at) : Duration.ZERO);
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
