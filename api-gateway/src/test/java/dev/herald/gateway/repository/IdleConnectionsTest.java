package dev.herald.gateway.repository;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The shared configuration (common's microprofile-config.properties) closes database connections idle for 20 s, so a
 * pool gives back what a peak opened: each connection is a PostgreSQL process. This service's pool stands for all.
 */
@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "gateway_test"))
class IdleConnectionsTest {
    static final int PEAK = 8;

    @Inject
    Pool pool;

    @Test
    void connectionsAPeakOpenedAreClosedOnceIdle() throws InterruptedException {
        // PEAK queries at once need PEAK connections: the pool opens them and, by default, keeps them for good.
        Uni.join()
                .all(IntStream.range(0, PEAK)
                        .mapToObj(i -> pool.query("select pg_sleep(0.3)").execute())
                        .toList())
                .andFailFast()
                .await()
                .atMost(Duration.ofSeconds(30));
        assertThat(backends()).isGreaterThanOrEqualTo(PEAK);

        // The pool's own periodic work (the request log, window leases) may keep one or two busy; the rest must go.
        long deadline = System.nanoTime() + Duration.ofSeconds(40).toNanos();
        long backends = backends();
        while (backends > 3 && System.nanoTime() < deadline) {
            Thread.sleep(1_000);
            backends = backends();
        }
        assertThat(backends).as("connections to this database after 40 s idle").isLessThanOrEqualTo(3);
    }

    /** Client connections to this service's database, the one asking included. */
    private long backends() {
        return pool.query("select count(*) as n from pg_stat_activity where datname = current_database()"
                        + " and backend_type = 'client backend'")
                .execute()
                .await()
                .atMost(Duration.ofSeconds(10))
                .iterator()
                .next()
                .getLong("n");
    }
}
