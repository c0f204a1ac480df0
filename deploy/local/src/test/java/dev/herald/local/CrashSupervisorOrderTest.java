package dev.herald.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The supervisor's order of restarts, with stand-in components and a clock the test moves. */
class CrashSupervisorOrderTest {
    @TempDir
    Path temp;

    private final MovableClock clock = new MovableClock(Instant.parse("2026-11-28T10:00:00Z"));
    private final List<String> restarted = new ArrayList<>();
    private final List<String> log = new ArrayList<>();

    @Test
    void aServiceDueWhilePostgresIsStillDownWaitsForItThenFollowsIt() {
        AtomicInteger postgresFailuresLeft = new AtomicInteger(1);
        StandIn postgres = new StandIn("postgres", true, () -> {
            if (postgresFailuresLeft.getAndDecrement() > 0) {
                throw new IllegalStateException("port still in use");
            }
        });
        StandIn posts = new StandIn("posts-service", false, () -> {});
        CrashSupervisor supervisor = supervise(postgres, posts);

        postgres.alive.set(false);
        posts.alive.set(false);
        supervisor.tick();
        assertThat(restarted).isEmpty();

        clock.advance(Duration.ofSeconds(1));
        supervisor.tick();
        // PostgreSQL's first restart failed (counted as its second crash: 2 s); posts-service is due but waits.
        assertThat(restarted).containsExactly("postgres");
        assertThat(posts.alive).isFalse();

        clock.advance(Duration.ofSeconds(2));
        supervisor.tick();
        assertThat(restarted).containsExactly("postgres", "postgres", "posts-service");
        assertThat(postgres.alive).isTrue();
        assertThat(posts.alive).isTrue();
    }

    @Test
    void aCrashOfPostgresRestartsOnlyPostgres() {
        StandIn postgres = new StandIn("postgres", true, () -> {});
        StandIn posts = new StandIn("posts-service", false, () -> {});
        CrashSupervisor supervisor = supervise(postgres, posts);

        postgres.alive.set(false);
        supervisor.tick();
        clock.advance(Duration.ofSeconds(1));
        supervisor.tick();
        clock.advance(Duration.ofSeconds(10));
        supervisor.tick();

        assertThat(restarted).containsExactly("postgres");
    }

    @Test
    void aComponentStoppedOnRequestIsNotRestartedUntilReleased() {
        StandIn posts = new StandIn("posts-service", false, () -> {});
        CrashSupervisor supervisor = supervise(posts);

        supervisor.hold("posts-service");
        posts.alive.set(false);
        clock.advance(Duration.ofSeconds(5));
        supervisor.tick();
        assertThat(restarted).isEmpty();

        posts.alive.set(true);
        supervisor.release("posts-service");
        posts.alive.set(false);
        supervisor.tick();
        clock.advance(Duration.ofSeconds(1));
        supervisor.tick();
        assertThat(restarted).containsExactly("posts-service");
        assertThat(log)
                .contains(
                        "posts-service exited (exit code 3) after 0 s without being asked to; restarting it in 1.0 s");
    }

    private CrashSupervisor supervise(StandIn... components) {
        List<CrashSupervisor.Component> list = new ArrayList<>();
        for (StandIn component : components) {
            list.add(new CrashSupervisor.Component(
                    component.name,
                    component.infrastructure,
                    component.alive::get,
                    () -> "exit code 3",
                    () -> {
                        restarted.add(component.name);
                        component.restart.run();
                        component.alive.set(true);
                    },
                    temp.resolve(component.name + ".log")));
        }
        return CrashSupervisor.watching(
                list, RestartPolicy.STANDARD, new StateDirectory(temp.resolve("state")), log::add, clock);
    }

    private record StandIn(String name, boolean infrastructure, CrashSupervisor.Restart restart, AtomicBoolean alive) {
        StandIn(String name, boolean infrastructure, CrashSupervisor.Restart restart) {
            this(name, infrastructure, restart, new AtomicBoolean(true));
        }
    }

    private static final class MovableClock extends Clock {
        private Instant now;

        MovableClock(Instant now) {
            this.now = now;
        }

        void advance(Duration duration) {
            now = now.plus(duration);
        }

        @Override
        public Instant instant() {
            return now;
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
}
