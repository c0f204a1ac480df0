package dev.herald.system;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.local.HeraldCli;
import dev.herald.local.LocalSuite;
import dev.herald.local.PostgresServer;
import dev.herald.local.ProcessTree;
import dev.herald.local.ReadinessProbe;
import dev.herald.local.StateDirectory;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Crashes under load, and the suite's supervisor bringing each component back by itself: every service, the Kafka
 * broker and PostgreSQL are killed in turn with SIGKILL from outside (as the OOM killer or {@code kill -9} ends them:
 * no shutdown of any kind, and nobody tells the suite), while customers keep creating posts and webhooks keep going
 * out. Nothing may be lost, published twice or charged wrongly ({@link SteadyPostLoad#finishAndVerify()}), and
 * {@code ./herald status} must show one restart for each component, after the SIGKILL it took.
 *
 * <p>PostgreSQL and Kafka go first, each awaited until it is back (the services keep running and reconnect); then
 * delivery-worker in the middle of a provider call; then the other services one after the other, each once the
 * previous one is ready again. (Overlapping their restarts would be quicker, but on a busy two-core machine seven JVMs
 * starting together kept the gateway down for longer than a client retries a post: two minutes.)
 * {@code -Dherald.faults.rounds=N} repeats the sequence ({@code bench/faults.sh} runs the long version).
 *
 * <p>PostgreSQL commits synchronously in every run; with {@code -Dherald.postgres.durable=true} (bench/faults.sh) it
 * also syncs each commit to disk ({@code fsync}), as production runs it. The test reads both settings from the server
 * before the first crash and from the restarted one at the end, so a run never reports settings it did not have.
 */
@Isolated
class CrashRecoveryIT {
    static final List<String> INFRASTRUCTURE = List.of("kafka", "postgres");
    static final List<String> SERVICES = List.of(
            "delivery-worker",
            "api-gateway",
            "posts-service",
            "webhooks-service",
            "usage-service",
            "profiles-service",
            "accounts-service");
    /** The supervisor's first restart comes after 1 s; a broker or database start takes seconds more under load. */
    static final Duration RESTART_TIMEOUT = Duration.ofSeconds(90);

    @Test
    void everyComponentKilledUnderLoadIsRestartedByTheSupervisorAndNothingIsLostOrPublishedTwice() throws Exception {
        int rounds = FaultScope.rounds();
        LocalSuite suite = RunningSuite.get();
        StateDirectory state = suite.config().state();
        Map<String, String> restartsBefore = statusColumn(suite, "RESTARTS");
        Instant started = Instant.now();
        String durability = assertPostgresDurability();
        try (SteadyPostLoad load = SteadyPostLoad.start("Crash recovery", 3)) {
            Thread.sleep(3000);
            for (int round = 0; round < rounds; round++) {
                for (String component : INFRASTRUCTURE) {
                    awaitRelaunched(state, component, crash(state, component));
                }
                for (String service : SERVICES) {
                    if (service.equals("delivery-worker")) {
                        // Cut provider calls off halfway: a slow publication (3 s) must have started.
                        awaitSlowDeliveryInFlight(30_000);
                    }
                    awaitRelaunched(state, service, crash(state, service));
                    awaitReady(suite, service);
                }
            }
            Duration crashes = Duration.between(started, Instant.now());
            SteadyPostLoad.Summary summary = load.finishAndVerify();
            assertThat(assertPostgresDurability())
                    .as("the restarted PostgreSQL's settings")
                    .isEqualTo(durability);
            int resumed = load.resumedTargets();
            System.out.printf(
                    "supervised crashes of %s and %s (%d round(s), %d s until the last was ready again, PostgreSQL %s):"
                            + " %s; %d targets attempted again; %d s in all%n",
                    INFRASTRUCTURE,
                    SERVICES,
                    rounds,
                    crashes.toSeconds(),
                    durability,
                    summary,
                    resumed,
                    Duration.between(started, Instant.now()).toSeconds());
            assertThat(summary.posts()).as("posts created during the crashes").isGreaterThan(SERVICES.size() * 3);
            assertThat(resumed)
                    .as("targets whose provider call a crash cut off, attempted again")
                    .isPositive();
        }

        Map<String, String> restarts = statusColumn(suite, "RESTARTS");
        Map<String, String> lastExits = statusColumn(suite, "LAST EXIT");
        for (String component : concat(INFRASTRUCTURE, SERVICES)) {
            int before = Integer.parseInt(restartsBefore.get(component));
            assertThat(Integer.parseInt(restarts.get(component)))
                    .as("restarts of %s in ./herald status", component)
                    .isEqualTo(before + rounds);
            if (!component.equals("postgres")) {
                // PostgreSQL's postmaster is started by pg_ctl, not by the suite, so its exit status is unknown.
                assertThat(lastExits.get(component))
                        .as("last exit of %s", component)
                        .isEqualTo("signal 9 (SIGKILL)");
            }
        }
    }

    /**
     * {@code SHOW fsync} and {@code SHOW synchronous_commit} on the running server: synchronous commit always (an
     * acknowledged post must survive the kill), fsync as the run asked ({@link RunningSuite#durablePostgres()}).
     */
    private static String assertPostgresDurability() throws Exception {
        String fsync;
        String synchronousCommit;
        try (Connection connection = RunningSuite.get().postgres().connect("postgres");
                Statement statement = connection.createStatement()) {
            fsync = show(statement, "fsync");
            synchronousCommit = show(statement, "synchronous_commit");
        }
        assertThat(synchronousCommit).as("synchronous_commit").isEqualTo("on");
        assertThat(fsync).as("fsync").isEqualTo(RunningSuite.durablePostgres() ? "on" : "off");
        return "fsync=" + fsync + " synchronous_commit=" + synchronousCommit;
    }

    private static String show(Statement statement, String setting) throws Exception {
        try (ResultSet rows = statement.executeQuery("show " + setting)) {
            rows.next();
            return rows.getString(1);
        }
    }

    /** SIGKILL to the component's process tree (a postmaster's backends die with it), as pid file names it. */
    private static long crash(StateDirectory state, String component) throws InterruptedException {
        long pid = StateDirectory.readPid(state.pidFile(component)).orElseThrow();
        System.out.println(Instant.now() + " crash test: SIGKILL to " + component + " (pid " + pid + ")");
        ProcessTree.of(pid).orElseThrow().kill();
        return pid;
    }

    /** Waits until the supervisor runs a new process for the component (the infrastructure: listening again). */
    private static void awaitRelaunched(StateDirectory state, String component, long killed) throws Exception {
        Instant deadline = Instant.now().plus(RESTART_TIMEOUT);
        while (Instant.now().isBefore(deadline)) {
            OptionalLong pid = StateDirectory.readPid(state.pidFile(component));
            if (pid.isPresent()
                    && pid.getAsLong() != killed
                    && ProcessTree.of(pid.getAsLong()).isPresent()) {
                System.out.println(
                        Instant.now() + " crash test: " + component + " relaunched (pid " + pid.getAsLong() + ")");
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError(component + " was not restarted within " + RESTART_TIMEOUT.toSeconds() + " s");
    }

    /** Waits until the restarted service answers its readiness check, before the next one is crashed. */
    private static void awaitReady(LocalSuite suite, String service) throws Exception {
        ReadinessProbe probe = new ReadinessProbe();
        int port = suite.managementPorts().get(service);
        Instant deadline = Instant.now().plus(RESTART_TIMEOUT.multipliedBy(2));
        ReadinessProbe.Result last = null;
        while (Instant.now().isBefore(deadline)) {
            last = probe.probe(port).join();
            if (last.ready()) {
                System.out.println(Instant.now() + " crash test: " + service + " ready again");
                return;
            }
            Thread.sleep(250);
        }
        throw new AssertionError(service + " was not ready again within "
                + RESTART_TIMEOUT.multipliedBy(2).toSeconds() + " s (last answer: " + last + ")");
    }

    /** One column of {@code ./herald status} for the suite's state directory, by component. */
    static Map<String, String> statusColumn(LocalSuite suite, String column) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new HeraldCli(
                        suite.config().projectRoot(),
                        Map.of("HERALD_STATE_DIR", suite.config().state().root().toString()),
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8))
                .run(new String[] {"status"});
        List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
        String header = lines.stream()
                .filter(line -> line.startsWith("COMPONENT"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no table in ./herald status:\n" + lines));
        int from = header.indexOf(column);
        int to = nextColumn(header, from + column.length());
        Map<String, String> values = new java.util.LinkedHashMap<>();
        for (String line : lines.subList(lines.indexOf(header) + 1, lines.size())) {
            if (line.isBlank()) {
                break;
            }
            String component = line.substring(0, line.indexOf(' '));
            values.put(
                    component,
                    line.substring(Math.min(from, line.length()), Math.min(to, line.length()))
                            .strip());
        }
        return values;
    }

    /** Where the column after the one ending at {@code from} starts (the columns are padded with spaces). */
    private static int nextColumn(String header, int from) {
        int index = from;
        while (index < header.length() && header.charAt(index) == ' ') {
            index++;
        }
        return index == header.length() ? Integer.MAX_VALUE : index;
    }

    private static List<String> concat(List<String> first, List<String> second) {
        return java.util.stream.Stream.concat(first.stream(), second.stream()).toList();
    }

    /**
     * Waits until a slow_ delivery's 3 s provider call runs. A delivery is {@code publishing} from its claim on, but
     * its attempt is counted only once the usage check passed and the call starts; a crash before that leaves
     * nothing to resume.
     */
    private static void awaitSlowDeliveryInFlight(long timeoutMillis) throws Exception {
        PostgresServer postgres = RunningSuite.get().postgres();
        long deadline = System.currentTimeMillis() + timeoutMillis;
        try (Connection connection = postgres.connect("herald_delivery");
                PreparedStatement statement = connection.prepareStatement("select count(*) from deliveries"
                        + " where status = 'publishing' and attempts > 0 and account_username like 'slow\\_%'")) {
            while (System.currentTimeMillis() < deadline) {
                try (ResultSet rows = statement.executeQuery()) {
                    rows.next();
                    if (rows.getLong(1) > 0) {
                        return;
                    }
                }
                Thread.sleep(20);
            }
        }
        throw new AssertionError("no slow delivery's provider call started within " + timeoutMillis + " ms");
    }
}
