package dev.herald.profiles.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.common.outbox.OutboxRetention;
import dev.herald.testing.OutboxRelayHold;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Published events are deleted once past the retention; the unpublished backlog and the replay window stay. */
@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "profiles_test"))
class OutboxRetentionTest {
    private static final String DATABASE = "profiles_test";

    @Inject
    Pool pool;

    @Test
    void publishedEventsPastTheRetentionAreDeletedInBatchesAndNothingElse() throws Exception {
        String key = "retention-" + UUID.randomUUID();
        // Held: the unpublished rows below must not be sent to Kafka by this service's relay.
        try (OutboxRelayHold relay = OutboxRelayHold.on(DATABASE)) {
            // Old rows get ids below every other row, as they would have had: the purge relies on ids growing with
            // time.
            long lowestId = queryLong("select coalesce(min(id), 0) from outbox") - 100;
            List<String> expired = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                expired.add(insert(lowestId + i, key, "now() - interval '3 days'", "now() - interval '2 days'"));
            }
            String sentLate = insert(lowestId + 10, key, "now() - interval '2 days'", "now() - interval '1 hour'");
            String neverSent = insert(lowestId + 11, key, "now() - interval '2 days'", "null");
            String recent = insert(null, key, "now() - interval '1 minute'", "now()");

            long deleted = new OutboxRetention(pool, Duration.ofDays(1), 2)
                    .purge()
                    .await()
                    .atMost(Duration.ofSeconds(30));

            assertThat(deleted).isGreaterThanOrEqualTo(expired.size());
            assertThat(eventIdsKeyed(key)).containsExactlyInAnyOrder(sentLate, neverSent, recent);
            queryLong("delete from outbox where message_key = '" + key + "' returning 0");
        }
    }

    @Test
    void aRunWithNothingPastTheRetentionDeletesNothing() throws Exception {
        String key = "retention-" + UUID.randomUUID();
        try (OutboxRelayHold relay = OutboxRelayHold.on(DATABASE)) {
            String published = insert(null, key, "now() - interval '10 minutes'", "now() - interval '9 minutes'");

            long deleted = new OutboxRetention(pool, Duration.ofMinutes(30), 2)
                    .purge()
                    .await()
                    .atMost(Duration.ofSeconds(30));

            assertThat(deleted).isZero();
            assertThat(eventIdsKeyed(key)).containsExactly(published);
            queryLong("delete from outbox where message_key = '" + key + "' returning 0");
        }
    }

    /** An event row; its id is the sequence's next unless given. Returns its event id. */
    private static String insert(Long id, String key, String createdAt, String publishedAt) throws Exception {
        String eventId = "evt_" + UUID.randomUUID();
        String sql = "insert into outbox (" + (id == null ? "" : "id, ")
                + "event_id, topic, message_key, payload, created_at, published_at)" + " values ("
                + (id == null ? "" : id + ", ") + "?, 'profile.events', ?, '{}'::jsonb, " + createdAt + ", "
                + publishedAt + ")";
        try (Connection connection = database();
                PreparedStatement insert = connection.prepareStatement(sql)) {
            insert.setString(1, eventId);
            insert.setString(2, key);
            insert.executeUpdate();
        }
        return eventId;
    }

    private static List<String> eventIdsKeyed(String key) throws Exception {
        try (Connection connection = database();
                PreparedStatement select =
                        connection.prepareStatement("select event_id from outbox where message_key = ?")) {
            select.setString(1, key);
            List<String> ids = new ArrayList<>();
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    ids.add(rows.getString(1));
                }
            }
            return ids;
        }
    }

    private static long queryLong(String sql) throws Exception {
        try (Connection connection = database();
                PreparedStatement statement = connection.prepareStatement(sql);
                ResultSet rows = statement.executeQuery()) {
            return rows.next() ? rows.getLong(1) : 0;
        }
    }

    private static Connection database() throws Exception {
        return RealInfrastructure.connect(DATABASE);
    }
}
