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
    private final Vertx vertx = Vertx.vertx();

    @AfterEach
    void close() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @Test
    void aNudgeRunsTheTaskWithoutWaitingForTheTick() throws Exception {
        CountDownLatch ran = new CountDownLatch(1);
        RepeatingTask task = new RepeatingTask(vertx, "test", Duration.ofHours(1), () -> {
            ran.countDown();
            return Uni.createFrom().voidItem();
        });
        task.start();
        try {
            task.nudge();
            assertThat(ran.await(5, TimeUnit.SECONDS)).isTrue();
        } finally {
            task.stop();
        }
    }

    @Test
    void aNudgeDuringARunRunsAgainRightAfterIt() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch firstRunStarted = new CountDownLatch(1);
        CountDownLatch secondRun = new CountDownLatch(1);
        RepeatingTask task = new RepeatingTask(vertx, "test", Duration.ofHours(1), () -> {
            if (runs.incrementAndGet() == 1) {
                firstRunStarted.countDown();
                // Still running when the second nudge comes: the work it announced must not wait for the next tick.
                return Uni.createFrom().voidItem().onItem().delayIt().by(Duration.ofMillis(300));
            }
            secondRun.countDown();
            return Uni.createFrom().voidItem();
        });
        task.start();
        try {
            task.nudge();
            assertThat(firstRunStarted.await(5, TimeUnit.SECONDS)).isTrue();
            task.nudge();
            task.nudge();
            assertThat(secondRun.await(5, TimeUnit.SECONDS))
                    .as("a second run after the first")
                    .isTrue();
            Thread.sleep(200);
            assertThat(runs)
                    .as("nudges during one run ask for one more run, not one each")
                    .hasValue(2);
        } finally {
            task.stop();
        }
    }

    @Test
    void aFailingRunDoesNotStopTheNextTick() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch ranAgain = new CountDownLatch(1);
        RepeatingTask task = new RepeatingTask(vertx, "test", Duration.ofMillis(50), () -> {
            if (runs.incrementAndGet() == 1) {
                // A claim that failed (the database away): logged, and the next tick claims again.
                return Uni.createFrom().failure(new IllegalStateException("claim failed"));
            }
            ranAgain.countDown();
            return Uni.createFrom().voidItem();
        });
        task.start();
        try {
            assertThat(ranAgain.await(5, TimeUnit.SECONDS)).isTrue();
        } finally {
            task.stop();
        }
    }

    @Test
    void aTaskNotStartedIgnoresNudges() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        RepeatingTask task = new RepeatingTask(vertx, "test", Duration.ofHours(1), () -> {
            runs.incrementAndGet();
            return Uni.createFrom().voidItem();
        });
        task.nudge();
        Thread.sleep(200);
        assertThat(runs).hasValue(0);
    }
}
