package dev.herald.usage.messaging;

import static dev.herald.usage.support.UsageTestSupport.count;
import static dev.herald.usage.support.UsageTestSupport.database;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.common.messaging.ProcessedEventRetention;
import dev.herald.common.messaging.ProcessedEventRetentionJob;
import dev.herald.testing.RealInfrastructure;
import dev.herald.usage.support.UsageTestSupport;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** A consumer forgets the events it applied once they are older than the redelivery window, and only those. */
@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = UsageTestSupport.DATABASE))
class ProcessedEventRetentionTest {
    @Inject
    Pool pool;

    /** A bean only where herald.processed-events.enabled=true at build time, as usage-service's application.properties sets. */
    @Inject
    Instance<ProcessedEventRetentionJob> job;

    @Test
    void theServiceRunsThePurge() {
        assertThat(job.isResolvable()).isTrue();
    }

    @Test
    void eventsProcessedBeforeTheRetentionAreForgottenInBatchesAndRecentOnesKept() throws Exception {
        String run = UUID.randomUUID().toString();
        for (int i = 0; i < 5; i++) {
            processed("evt_old_" + i + "_" + run, "now() - interval '9 days'");
        }
        processed("evt_inside_" + run, "now() - interval '7 days'");
        processed("evt_recent_" + run, "now()");

        long forgotten = new ProcessedEventRetention(pool, Duration.ofDays(8), 2)
                .purge()
                .await()
                .atMost(Duration.ofSeconds(30));

        assertThat(forgotten).isGreaterThanOrEqualTo(5);
        assertThat(count("select count(*) from processed_events where event_id like ?", "evt_old_%" + run))
                .isZero();
        assertThat(count(
                        "select count(*) from processed_events where event_id in (?, ?)",
                        "evt_inside_" + run,
                        "evt_recent_" + run))
                .isEqualTo(2);
    }

    private static void processed(String eventId, String processedAt) throws Exception {
        try (Connection connection = database();
                PreparedStatement insert = connection.prepareStatement(
                        "insert into processed_events (event_id, processed_at) values (?, " + processedAt + ")")) {
            insert.setString(1, eventId);
            insert.executeUpdate();
        }
    }
}
