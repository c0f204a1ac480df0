package dev.herald.common.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RepeatingTaskTest {
    /** Longer than in production, so a test thread that loses the CPU for a moment still nudges within it. */
    private static final Duration LINGER = Duration.ofMillis(300);
    private final Vertx vertx = Vertx.vertx();

    @AfterEach
    void close() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @Test
    void theNudgesOfOneMomentShareOneRun() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        RepeatingTask task = new RepeatingTask(vertx, "test", Duration.ofHours(1), () -> {
            runs.incrementAndGet();
            return Uni.createFrom().voidItem();
        }, LINGER);
        task.start();
        try {
            for (int i = 0; i < 20; i++) {
                task.nudge();
            }
            Thread.sleep(LINGER.toMillis() + 500);
            assertThat(runs).hasValue(1);

            task.nudge();
            Thread.sleep(LINGER.toMillis() + 500);
            assertThat(runs).hasValue(2);
        } finally {
            task.stop();
        }
    }

    @Test
    void aNudgeDuringARunRunsAgainRightAfterIt() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch firstRunStarted = new CountDownLatch(1);
        CountDownLatch releaseFirstRun = new CountDownLatch(1);
        RepeatingTask task = new RepeatingTask(vertx, "test", Duration.ofHours(1), () -> {
            if (runs.incrementAndGet() == 1) {
                firstRunStarted.countDown();
                // Still running when the second nudge fires: the work it announced must not wait for the next tick.
                return Uni.createFrom().voidItem().onItem().delayIt().by(Duration.ofMillis(300));
            }
            releaseFirstRun.countDown();
            return Uni.createFrom().voidItem();
        }, Duration.ZERO);
        task.start();
        try {
            task.nudge();
            assertThat(firstRunStarted.await(5, TimeUnit.SECONDS)).isTrue();
            task.nudge();
            assertThat(releaseFirstRun.await(5, TimeUnit.SECONDS)).as("a second run after the first").isTrue();
            Thread.sleep(200);
            assertThat(runs).hasValue(2);
        } finally {
            task.stop();
        }
    }

    @Test
    void aStoppedTaskIgnoresNudges() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        RepeatingTask task = new RepeatingTask(vertx, "test", Duration.ofHours(1), () -> {
            runs.incrementAndGet();
            return Uni.createFrom().voidItem();
        }, Duration.ZERO);
        task.nudge();
        Thread.sleep(200);
        assertThat(runs).hasValue(0);
    }
}
