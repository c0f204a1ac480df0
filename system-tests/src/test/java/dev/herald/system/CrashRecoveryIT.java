package dev.herald.system;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.local.LocalSuite;
import dev.herald.local.PostgresServer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Crashes under load: components are killed with SIGKILL (no shutdown of any kind, as a machine failure ends them)
 * and started again, one after the other, while customers keep creating posts and webhooks keep going out. Nothing
 * may be lost, published twice or charged wrongly ({@link SteadyPostLoad#finishAndVerify()}).
 *
 * <p>CI crashes the components whose failure is hardest to survive: delivery-worker in the middle of provider
 * calls, the Kafka broker and PostgreSQL. {@code -Dherald.faults=all} crashes every service too, and
 * {@code -Dherald.faults.rounds=N} repeats the sequence ({@code bench/faults.sh} runs the long version).
 */
@Isolated
class CrashRecoveryIT {
    static final List<String> SHORT = List.of("delivery-worker", "kafka", "postgres");
    static final List<String> ALL = List.of(
            "api-gateway",
            "posts-service",
            "delivery-worker",
            "webhooks-service",
            "usage-service",
            "profiles-service",
            "accounts-service",
            "kafka",
            "postgres");
    /** How long a crashed component stays down: long enough for every service to notice and retry. */
    static final long DOWN_MILLIS = 3000;

    @Test
    void crashesOfServicesBrokerAndDatabaseLoseNothingAndPublishNothingTwice() throws Exception {
        List<String> crashed = FaultScope.components(SHORT, ALL);
        int rounds = FaultScope.rounds();
        LocalSuite suite = RunningSuite.get();
        try (SteadyPostLoad load = SteadyPostLoad.start("Crash recovery", 3)) {
            Thread.sleep(3000);
            for (int round = 0; round < rounds; round++) {
                for (String component : crashed) {
                    if (component.equals("delivery-worker")) {
                        // Cut provider calls off halfway: a slow publication (3 s) must have started.
                        awaitSlowDeliveryInFlight(30_000);
                    }
                    crash(suite, component);
                    Thread.sleep(DOWN_MILLIS);
                    recover(suite, component);
                    Thread.sleep(1000);
                }
            }
            SteadyPostLoad.Summary summary = load.finishAndVerify();
            int resumed = load.resumedTargets();
            System.out.printf(
                    "crashes of %s (%d round(s)): %s; %d targets attempted again%n", crashed, rounds, summary, resumed);
            assertThat(summary.posts()).as("posts created during the crashes").isGreaterThan(crashed.size() * 3);
            if (crashed.contains("delivery-worker")) {
                assertThat(resumed)
                        .as("targets whose provider call a crash cut off, attempted again")
                        .isPositive();
            }
        }
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

    private static void crash(LocalSuite suite, String component) {
        switch (component) {
            case "kafka" -> suite.killBroker();
            case "postgres" -> suite.killDatabase();
            default -> suite.kill(component);
        }
    }

    private static void recover(LocalSuite suite, String component) {
        switch (component) {
            case "kafka" -> suite.restartBroker();
            case "postgres" -> suite.restartDatabase();
            default -> suite.start(component);
        }
    }
}
