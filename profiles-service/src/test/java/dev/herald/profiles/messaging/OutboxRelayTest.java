package dev.herald.profiles.messaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.common.outbox.OutboxMessage;
import dev.herald.common.outbox.OutboxRelay;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.pgclient.PgPool;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.PoolOptions;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The relay on its own: a scratch database with an outbox of the services' shape (so no service relay competes for
 * it), and a sender that records or refuses messages in place of Kafka.
 */
@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "profiles_test"))
class OutboxRelayTest {
    private static final String DATABASE = "outbox_relay_test";

    @Inject
    Vertx vertx;

    private Pool pool;

    @BeforeEach
    void scratchOutbox() throws Exception {
        var postgres = RealInfrastructure.postgres();
        postgres.ensureDatabase(DATABASE);
        update("drop table if exists outbox");
        update("""
                create table outbox (
                    id bigserial primary key, event_id text not null unique, topic text not null, message_key text not null,
                    payload jsonb not null, created_at timestamptz not null default now(), published_at timestamptz,
                    trace_parent text)""");
        update("create index outbox_unpublished on outbox (id) where published_at is null");
        pool = PgPool.pool(
                vertx,
                new PgConnectOptions()
                        .setHost(postgres.host())
                        .setPort(postgres.port())
                        .setDatabase(DATABASE)
                        .setUser(postgres.username())
                        .setPassword(postgres.password()),
                new PoolOptions().setMaxSize(2));
    }

    @AfterEach
    void closePool() {
        pool.closeAndAwait();
    }

    @Test
    void aBatchIsMarkedPublishedOnlyOnceTheBrokerAcknowledgedEveryMessageAndLeavesInIdOrder() throws Exception {
        for (int i = 1; i <= 5; i++) {
            update("insert into outbox (event_id, topic, message_key, payload) values ('evt_" + i
                    + "', 'profile.events', 'key_" + (i % 2) + "', '{\"n\": " + i + "}')");
        }
        OutboxRelay refused = new OutboxRelay(
                pool,
                message -> message.eventId().equals("evt_3")
                        ? Uni.createFrom().failure(new IllegalStateException("the broker refused evt_3"))
                        : Uni.createFrom().voidItem(),
                10);

        assertThatThrownBy(() -> refused.publishBatch().await().atMost(Duration.ofSeconds(10)))
                .hasMessageContaining("evt_3");
        assertThat(unpublished()).isEqualTo(5);

        List<OutboxMessage> sent = new CopyOnWriteArrayList<>();
        OutboxRelay relay = new OutboxRelay(
                pool,
                message -> {
                    sent.add(message);
                    return Uni.createFrom().voidItem();
                },
                3);

        assertThat(relay.publishBatch().await().atMost(Duration.ofSeconds(10))).isEqualTo(3);
        assertThat(relay.publishBatch().await().atMost(Duration.ofSeconds(10))).isEqualTo(2);
        assertThat(relay.publishBatch().await().atMost(Duration.ofSeconds(10))).isZero();
        assertThat(sent)
                .extracting(OutboxMessage::eventId)
                .containsExactly("evt_1", "evt_2", "evt_3", "evt_4", "evt_5");
        assertThat(sent.get(3).payload()).isEqualTo("{\"n\": 4}");
        assertThat(unpublished()).isZero();
    }

    private static long unpublished() throws Exception {
        try (Connection connection = database();
                PreparedStatement count =
                        connection.prepareStatement("select count(*) from outbox where published_at is null");
                ResultSet rows = count.executeQuery()) {
            rows.next();
            return rows.getLong(1);
        }
    }

    private static void update(String sql) throws Exception {
        try (Connection connection = database();
                Statement statement = connection.createStatement()) {
            statement.executeUpdate(sql);
        }
    }

    private static Connection database() throws Exception {
        return RealInfrastructure.connect(DATABASE);
    }
}
