package dev.herald.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A rolling deploy, as Kubernetes does one: every service the publishing path crosses is stopped with SIGTERM and
 * started again, one after the other, while customers keep creating posts and webhooks keep going out. Nothing may
 * be lost, published twice or charged wrongly ({@link SteadyPostLoad#finishAndVerify()}).
 */
class RollingRestartIT {
    static final List<String> RESTARTED = List.of("api-gateway", "posts-service", "delivery-worker", "webhooks-service",
            "usage-service");

    @Test
    void aRollingRestartOfEveryServiceLosesNothingAndPublishesNothingTwice() throws Exception {
        try (SteadyPostLoad load = SteadyPostLoad.start("Rolling restart", 3)) {
            Thread.sleep(3000);
            for (String service : RESTARTED) {
                RunningSuite.get().stop(service);
                RunningSuite.get().start(service);
                Thread.sleep(2000);
            }
            SteadyPostLoad.Summary summary = load.finishAndVerify();
            System.out.printf("rolling restart of %s: %s%n", RESTARTED, summary);
            assertThat(summary.posts()).as("posts created during the restarts").isGreaterThan(RESTARTED.size() * 3);
        }
    }
}
