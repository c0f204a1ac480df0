package dev.herald.common.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class EventRetryTest {
    private final Vertx vertx = Vertx.vertx();

    @AfterEach
    void close() {
        vertx.close();
    }

    @Test
    void anEventIsAppliedAgainUntilItIsNoMatterHowOftenItFails() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        String result = EventRetry.<String>untilApplied(
                        "event evt_1",
                        () -> attempts.incrementAndGet() <= 25
                                ? Uni.createFrom().failure(new IllegalStateException("database unavailable"))
                                : Uni.createFrom().item("applied"),
                        Duration.ofMillis(1),
                        Duration.ofMillis(2))
                .await()
                .atMost(Duration.ofSeconds(10));

        assertThat(result).isEqualTo("applied");
        // Each attempt asked for a new unit of work (a new transaction), none was replayed.
        assertThat(attempts).hasValue(26);
    }

    @Test
    void everyAttemptRunsOnTheContextTheRecordArrivedOn() throws Exception {
        Context context = vertx.getOrCreateContext();
        List<Context> attemptContexts = new CopyOnWriteArrayList<>();
        CompletableFuture<String> done = new CompletableFuture<>();
        context.runOnContext(ignored -> EventRetry.<String>untilApplied(
                        "event evt_2",
                        () -> {
                            attemptContexts.add(Vertx.currentContext());
                            return attemptContexts.size() < 4
                                    ? Uni.createFrom().failure(new IllegalStateException("not yet"))
                                    : Uni.createFrom().item("applied");
                        },
                        Duration.ofMillis(5),
                        Duration.ofMillis(10))
                .subscribe()
                .with(done::complete, done::completeExceptionally));

        assertThat(done.get(10, TimeUnit.SECONDS)).isEqualTo("applied");
        // After a backoff Mutiny resumes on its timer thread; Hibernate Reactive works only on the record's context.
        assertThat(attemptContexts)
                .hasSize(4)
                .allSatisfy(attempt -> assertThat(attempt).isSameAs(context));
    }
}
