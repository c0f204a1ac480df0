package dev.herald.testing;

import dev.herald.common.auth.RsaKeys;
import dev.herald.local.FreePorts;
import dev.herald.local.KafkaBroker;
import dev.herald.local.PostgresServer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * Gives a {@code @QuarkusTest} a real PostgreSQL and a real Kafka broker, started once per test JVM and
 * shared by every test class in it. When {@code HERALD_TEST_DATABASE_URL} or {@code KAFKA_BOOTSTRAP_SERVERS}
 * point at running servers, those are used instead. Init arg {@code database} names the service's
 * database (created if missing).
 */
public class RealInfrastructure implements QuarkusTestResourceLifecycleManager {
    /**
     * Where the servers this JVM started listen. Quarkus may load this class again (another class loader) when
     * it restarts the application for a test class with its own resources; the statics below are then fresh,
     * and without these JVM-wide properties every restart would start another PostgreSQL and Kafka broker.
     */
    private static final String SHARED_DATABASE = "herald.test.shared-database-url";

    private static final String SHARED_KAFKA = "herald.test.shared-kafka-bootstrap";

    private static PostgresServer postgres;
    private static KafkaBroker kafka;
    private static String bootstrapServers;
    private static KeyPair internalJwtKeys;
    private static boolean stopHookInstalled;

    private String database = "herald_test";

    @Override
    public void init(Map<String, String> initArgs) {
        database = initArgs.getOrDefault("database", database);
    }

    @Override
    public Map<String, String> start() {
        try {
            startShared();
            postgres.ensureDatabase(database);
        } catch (Exception e) {
            throw new IllegalStateException("could not start the test infrastructure", e);
        }
        Map<String, String> config = new HashMap<>();
        config.put("quarkus.datasource.reactive.url", postgres.reactiveUrl(database));
        config.put("quarkus.datasource.jdbc.url", postgres.jdbcUrl(database));
        config.put("quarkus.datasource.username", postgres.username());
        config.put("quarkus.datasource.password", postgres.password());
        config.put("kafka.bootstrap.servers", bootstrapServers);
        config.putAll(TestTokens.config(internalJwtKeys));
        config.put("herald.cursor.secret", "test-cursor-secret-0123456789abcdef");
        return config;
    }

    private static synchronized void startShared() throws Exception {
        if (internalJwtKeys == null) {
            internalJwtKeys = RsaKeys.generate();
            TestTokens.useKeys(internalJwtKeys);
        }
        if (postgres == null) {
            String url = System.getenv("HERALD_TEST_DATABASE_URL");
            String started = System.getProperty(SHARED_DATABASE);
            if (url != null && !url.isBlank()) {
                postgres = PostgresServer.existing(url);
            } else if (started != null) {
                postgres = PostgresServer.existing(started);
            } else {
                postgres = PostgresServer.startEmbedded(FreePorts.next(), null);
                URI server = URI.create(postgres.reactiveUrl("postgres"));
                System.setProperty(
                        SHARED_DATABASE,
                        "postgresql://" + postgres.username() + ":" + postgres.password() + "@" + server.getHost() + ":"
                                + server.getPort());
            }
        }
        if (bootstrapServers == null) {
            String servers = System.getenv("KAFKA_BOOTSTRAP_SERVERS");
            String started = System.getProperty(SHARED_KAFKA);
            if (servers != null && !servers.isBlank()) {
                bootstrapServers = servers;
            } else if (started != null) {
                bootstrapServers = started;
            } else {
                Path root = Path.of(System.getProperty("herald.root", ".."));
                Path work = Files.createTempDirectory("herald-test-kafka");
                kafka = KafkaBroker.start(
                        KafkaBroker.brokerLibs(root), work, FreePorts.next(), FreePorts.next(), Duration.ofSeconds(90));
                bootstrapServers = kafka.bootstrapServers();
                System.setProperty(SHARED_KAFKA, bootstrapServers);
            }
        }
        if (!stopHookInstalled) {
            Runtime.getRuntime()
                    .addShutdownHook(new Thread(RealInfrastructure::stopShared, "herald-test-infrastructure-stop"));
            stopHookInstalled = true;
        }
    }

    private static synchronized void stopShared() {
        if (kafka != null) {
            kafka.close();
            kafka = null;
        }
        if (postgres != null) {
            try {
                postgres.close();
            } catch (Exception ignored) {
                // the JVM is exiting; the embedded server's own hook cleans up too
            }
            postgres = null;
        }
    }

    @Override
    public void stop() {
        // Shared by every test class of this JVM; stopped by the shutdown hook.
    }

    /** The shared server, for tests that need a second database or direct SQL. */
    public static PostgresServer postgres() {
        return postgres;
    }

    /** A JDBC connection to one of the shared server's databases, for a test's direct SQL; the caller closes it. */
    public static Connection connect(String database) throws SQLException {
        return postgres.connect(database);
    }

    public static String bootstrapServers() {
        return bootstrapServers;
    }
}
