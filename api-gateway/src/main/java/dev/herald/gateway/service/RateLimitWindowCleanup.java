package dev.herald.gateway.service;

import dev.herald.gateway.repository.AdmissionStatements;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;

/** Ended windows are never read again; dropping them keeps the table at a few rows per active tenant. */
@ApplicationScoped
public class RateLimitWindowCleanup {
    private static final Duration KEEP = Duration.ofMinutes(10);

    private final AdmissionStatements windows;
    private final Clock clock;

    public RateLimitWindowCleanup(AdmissionStatements windows, Clock clock) {
        this.windows = windows;
        this.clock = clock;
    }

    @Scheduled(every = "5m", delayed = "1m", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> dropEndedWindows() {
        return windows.deleteWindowsEndedBefore(clock.instant().minus(KEEP)).replaceWithVoid();
    }
}
