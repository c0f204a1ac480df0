package dev.herald.posts.metrics;

import dev.herald.common.scheduling.RepeatingTask;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.PostTarget;
import dev.herald.posts.repository.UnfinishedTargetStatements;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code herald_posts_oldest_unfinished_target_age_seconds{status}}: how long the oldest target that is not final has
 * been due (its post's scheduled time, or its acceptance), per target status ({@code queued}: not handed over yet, or
 * held for a reconnection; {@code publishing}; {@code uncertain}); 0 when none. posts-service sees every target, those
 * whose handover was lost included, so the gauge lives here. Refreshed every 15 s by one query, never per scrape, like
 * {@code OutboxBacklog}. Each status has its own healthy ceiling (docs/operations.md): publishing a few hours (an upload
 * and a platform's processing), queued and uncertain a day (the hold deadline, the reconciler's give-up).
 */
@ApplicationScoped
public class UnfinishedTargetAge {
    static final List<String> STATUSES = List.of(PostTarget.QUEUED, PostTarget.PUBLISHING, PostTarget.UNCERTAIN);

    private final UnfinishedTargetStatements statements;
    private final Clock clock;
    private final RepeatingTask task;
    private final Map<String, AtomicLong> ageMillis = new ConcurrentHashMap<>();

    public UnfinishedTargetAge(
            UnfinishedTargetStatements statements, MeterRegistry registry, Clock clock, Vertx vertx) {
        this.statements = statements;
        this.clock = clock;
        this.task = new RepeatingTask(vertx, "unfinished target age gauge", Duration.ofSeconds(15), this::refresh);
        for (String status : STATUSES) {
            AtomicLong age = new AtomicLong();
            ageMillis.put(status, age);
            Gauge.builder("herald.posts.oldest.unfinished.target.age", age, millis -> millis.get() / 1000.0)
                    .description("How long the oldest due target that is not final has been due")
                    .baseUnit("seconds")
                    .tag("status", status)
                    .register(registry);
        }
    }

    void start(@Observes StartupEvent started) {
        task.start();
        task.nudge();
    }

    void stop(@Observes ShutdownEvent stopping) {
        task.stop();
    }

    /** Reads every status's oldest due time in one statement. */
    public Uni<Void> refresh() {
        Instant now = Timestamps.now(clock);
        return statements
                .oldestDue(now)
                .invoke(oldest -> ageMillis.forEach((status, age) -> {
                    Instant due = oldest.get(status);
                    age.set(
                            due == null
                                    ? 0
                                    : Math.max(0, Duration.between(due, now).toMillis()));
                }))
                .replaceWithVoid();
    }
}
