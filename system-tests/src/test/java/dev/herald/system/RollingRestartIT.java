package dev.herald.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * A rolling deploy, as Kubernetes does one: every service the publishing path crosses is stopped with SIGTERM and
 * started again, one after the other, while customers keep creating posts and webhooks keep going out. Nothing may
 * be lost, published twice or charged wrongly ({@link SteadyPostLoad#finishAndVerify()}).
 */
@Isolated
class RollingRestartIT {
    /**
     * What CI restarts: the gateway (requests in flight when it stops) and delivery-worker (provider calls in flight).
     * Every service drains the same way (common's shutdown settings); {@code -Dherald.faults=all} restarts them all.
     */
    static final List<String> SHORT = List.of("api-gateway", "delivery-worker");

    static final List<String> ALL = List.of(
            "api-gateway",
            "posts-service",
            "delivery-worker",
            "webhooks-service",
            "usage-service",
            "profiles-service",
            "accounts-service");

    @Test
    void aRollingRestartLosesNothingAndPublishesNothingTwice() throws Exception {
        List<String> restarted = FaultScope.components(SHORT, ALL);
        try (SteadyPostLoad load = SteadyPostLoad.start("Rolling restart", 3)) {
            Thread.sleep(3000);
            for (String service : restarted) {
                RunningSuite.get().stop(service);
                RunningSuite.get().start(service);
                Thread.sleep(1000);
            }
            SteadyPostLoad.Summary summary = load.finishAndVerify();
            System.out.printf("rolling restart of %s: %s%n", restarted, summary);
            assertThat(summary.posts()).as("posts created during the restarts").isGreaterThan(restarted.size() * 3);
        }
    }
}
