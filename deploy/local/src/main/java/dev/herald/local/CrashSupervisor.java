package dev.herald.local;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Restarts the components of a running suite (PostgreSQL, Kafka, each service, the provider fakes) that exit without
 * being asked to, as systemd's {@code Restart=on-failure} or a Kubernetes Deployment would: it looks at each one every
 * half second, waits as {@link RestartPolicy} says, starts it again, and leaves it down once it crash-loops. Each
 * exit and restart is logged through the suite's progress (so in {@code .herald/logs/herald.log}) and recorded in
 * {@code supervision.properties} for {@code ./herald status} ({@link SupervisionRecord}).
 *
 * <p>Dependency order: the infrastructure comes first, and a service is started again only while PostgreSQL and
 * Kafka run (it would fail its start without them and count a crash for nothing). A crash of PostgreSQL or Kafka
 * restarts only that: the services keep running and reconnect by themselves, as they do in production.
 *
 * <p>Only an exit counts: a service that hangs or stops answering its readiness check is left alone (there is no
 * liveness probe). {@link #hold} takes a component out of supervision (a stop on request, or a test's deliberate
 * crash) until {@link #release}.
 */
final class CrashSupervisor implements AutoCloseable {
    static final Duration POLL_INTERVAL = Duration.ofMillis(500);

    /**
     * One supervised component.
     *
     * @param infrastructure true for PostgreSQL and Kafka, which the services need before they can start
     * @param alive          whether it still runs
     * @param lastExit       how its last run ended ({@link RestartPolicy#describeExit}), as far as it can be known
     * @param restart        starts it again; returns once it is launched (the infrastructure: once it listens)
     */
    record Component(
            String name,
            boolean infrastructure,
            BooleanSupplier alive,
            Supplier<String> lastExit,
            Restart restart,
            Path log) {}

    @FunctionalInterface
    interface Restart {
        void run() throws Exception;
    }

    enum State {
        RUNNING,
        RESTARTING,
        /** Stopped on request (or crashed by a test that brings it back itself): not restarted. */
        HELD,
        CRASH_LOOP
    }

    private static final class Entry {
        final Component component;
        State state = State.RUNNING;
        Instant startedAt;
        Instant restartAt;
        int restarts;
        String lastExit;
        RestartPolicy.Crashes crashes = RestartPolicy.Crashes.NONE;

        Entry(Component component, Instant startedAt) {
            this.component = component;
            this.startedAt = startedAt;
        }
    }

    private final Map<String, Entry> entries = new LinkedHashMap<>();
    private final RestartPolicy policy;
    private final StateDirectory state;
    private final Consumer<String> log;
    private final Clock clock;
    private final Thread thread;
    private volatile boolean closing;

    private CrashSupervisor(
            List<Component> components, RestartPolicy policy, StateDirectory state, Consumer<String> log, Clock clock) {
        this.policy = policy;
        this.state = state;
        this.log = log;
        this.clock = clock;
        Instant now = clock.instant();
        // Infrastructure first, so that a service due at the same time as PostgreSQL waits for it.
        components.stream().filter(Component::infrastructure).forEach(c -> entries.put(c.name(), new Entry(c, now)));
        components.stream().filter(c -> !c.infrastructure()).forEach(c -> entries.put(c.name(), new Entry(c, now)));
        this.thread = new Thread(this::watch, "herald-crash-supervisor");
        this.thread.setDaemon(true);
    }

    /** Starts watching the components, which are all running now. */
    static CrashSupervisor start(
            List<Component> components, RestartPolicy policy, StateDirectory state, Consumer<String> log) {
        CrashSupervisor supervisor = watching(components, policy, state, log, Clock.systemUTC());
        supervisor.thread.start();
        return supervisor;
    }

    /** A supervisor whose looks a test takes itself ({@link #tick()}) on its own clock. */
    static CrashSupervisor watching(
            List<Component> components, RestartPolicy policy, StateDirectory state, Consumer<String> log, Clock clock) {
        CrashSupervisor supervisor = new CrashSupervisor(components, policy, state, log, clock);
        supervisor.record();
        return supervisor;
    }

    /**
     * Takes the component out of supervision until {@link #release}: a restart under way finishes first, none starts
     * afterwards.
     */
    synchronized void hold(String name) {
        Entry entry = entries.get(name);
        if (entry != null) {
            entry.state = State.HELD;
            record();
        }
    }

    /** Supervises the component again, which its caller has just started: its crash history starts over. */
    synchronized void release(String name) {
        Entry entry = entries.get(name);
        if (entry != null) {
            entry.state = State.RUNNING;
            entry.startedAt = clock.instant();
            entry.crashes = RestartPolicy.Crashes.NONE;
            record();
        }
    }

    /** Stops supervising (before the suite stops its components): waits for a restart under way to finish. */
    @Override
    public void close() {
        closing = true;
        try {
            // Not interrupted: between two looks it sleeps half a second at most, and
            // a Kafka restart under way (up to its start timeout) finishes rather than leaving a half-started broker.
            thread.join(SuiteInfrastructure.KAFKA_START_TIMEOUT.plusSeconds(10).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void watch() {
        while (!closing) {
            try {
                Thread.sleep(POLL_INTERVAL.toMillis());
            } catch (InterruptedException e) {
                return;
            }
            try {
                tick();
            } catch (RuntimeException e) {
                log.accept("supervisor: checking the components failed, will look again: " + e);
            }
        }
    }

    /** One look at every component, in dependency order. */
    synchronized void tick() {
        boolean changed = false;
        for (Entry entry : entries.values()) {
            if (closing) {
                return;
            }
            Instant now = clock.instant();
            if (entry.state == State.RUNNING && !entry.component.alive().getAsBoolean()) {
                crashed(entry, entry.component.lastExit().get(), now);
                changed = true;
            } else if (entry.state == State.RESTARTING
                    && !now.isBefore(entry.restartAt)
                    && (entry.component.infrastructure() || infrastructureRuns())) {
                restart(entry);
                changed = true;
            }
        }
        if (changed) {
            record();
        }
    }

    private boolean infrastructureRuns() {
        return entries.values().stream()
                .filter(entry -> entry.component.infrastructure())
                .allMatch(entry -> entry.state == State.RUNNING);
    }

    private void crashed(Entry entry, String exit, Instant now) {
        String name = entry.component.name();
        RestartPolicy.Verdict verdict = policy.afterCrash(entry.crashes, entry.startedAt, now);
        entry.crashes = verdict.crashes();
        entry.lastExit = exit;
        String ran = "after " + uptime(Duration.between(entry.startedAt, now));
        if (verdict.restart()) {
            entry.state = State.RESTARTING;
            entry.restartAt = now.plus(verdict.delay());
            log.accept(name + " exited (" + exit + ") " + ran + " without being asked to; restarting it in "
                    + verdict.delay().toMillis() / 1000.0 + " s");
        } else {
            entry.state = State.CRASH_LOOP;
            log.accept(name + " exited (" + exit + ") " + ran + " and is " + crashLoopMessage(entry));
        }
    }

    private void restart(Entry entry) {
        String name = entry.component.name();
        entry.restarts++;
        log.accept("restarting " + name + " (restart " + entry.restarts + ")");
        Instant started = clock.instant();
        try {
            entry.component.restart().run();
            entry.state = State.RUNNING;
            entry.startedAt = started;
            log.accept(name + " runs again");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            entry.state = State.HELD;
        } catch (Exception e) {
            entry.startedAt = started;
            crashed(entry, "its restart failed: " + e.getMessage(), clock.instant());
        }
    }

    /** What {@code status} and the log say about a component left down. */
    String crashLoopMessage(Entry entry) {
        return "left down: it crashed " + entry.crashes.recent().size() + " times within "
                + uptime(policy.crashLoopWindow()) + " (a crash loop); find the cause in " + entry.component.log()
                + ", fix it, then ./herald down and ./herald up";
    }

    /** {@code 2 h 5 min}, {@code 4 min 2 s}, {@code 12 s}. */
    static String uptime(Duration duration) {
        long seconds = Math.max(0, duration.toSeconds());
        if (seconds >= 3600) {
            return seconds / 3600 + " h " + seconds % 3600 / 60 + " min";
        }
        if (seconds >= 60) {
            return seconds / 60 + " min" + (seconds % 60 == 0 ? "" : " " + seconds % 60 + " s");
        }
        return seconds + " s";
    }

    private void record() {
        Map<String, SupervisionRecord.Row> rows = new LinkedHashMap<>();
        entries.forEach((name, entry) -> rows.put(
                name,
                new SupervisionRecord.Row(
                        entry.state,
                        entry.restarts,
                        entry.lastExit,
                        entry.state == State.CRASH_LOOP ? crashLoopMessage(entry) : null)));
        try {
            SupervisionRecord.write(state, rows);
        } catch (IOException e) {
            log.accept("supervisor: could not record the components' state in " + state.supervision() + ": " + e);
        }
    }
}
