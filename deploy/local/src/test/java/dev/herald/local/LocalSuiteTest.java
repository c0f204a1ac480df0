package dev.herald.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The supervisor against real embedded PostgreSQL and Kafka, with {@link FakeService}s in place of the Quarkus
 * services (same process handling, only the command differs).
 */
class LocalSuiteTest {
    private static final Path PROJECT_ROOT =
            Path.of(System.getProperty("herald.root", "../..")).toAbsolutePath().normalize();
    private final HttpClient http = HttpClient.newHttpClient();

    @TempDir
    Path temp;

    @Test
    void recoversFromACrashedRunReusesItsSecretsAndHandsServicesTheirEnvironment() throws Exception {
        LocalSuiteConfig config = fakeSuite().build();
        StateDirectory state = config.state();
        Map<String, Long> leftovers = runAndCrash(config);
        Map<String, String> secretsOfTheCrashedRun = properties(state.secrets());

        try (LocalSuite suite = LocalSuite.start(config)) {
            // Everything the crashed run left behind was stopped, and replaced by new processes.
            leftovers.forEach(
                    (component, pid) -> assertThat(ProcessHandle.of(pid).filter(ProcessTree::running))
                            .as(component)
                            .isEmpty());
            assertThat(properties(state.secrets())).isEqualTo(secretsOfTheCrashedRun);
            assertThat(suite.demoTestKey()).isEqualTo(secretsOfTheCrashedRun.get("demo-test-key"));
            assertThat(suite.baseUrl()).isEqualTo("http://127.0.0.1:" + config.gatewayPort() + "/api/v1");
            assertThat(suite.dashboardSignInUrl())
                    .isEqualTo("http://127.0.0.1:" + config.gatewayPort() + "/dashboard/sign-in/"
                            + suite.secrets().dashboardSignInToken());
            assertThat(suite.servicePorts())
                    .containsEntry("posts-service", config.port(HeraldService.POSTS))
                    .hasSize(HeraldService.values().length);

            // The keys as files the services read (and read again when they change), written from the stored secrets.
            assertThat(Files.readString(state.cipherKeys().resolve("current-key")))
                    .isEqualTo(secretsOfTheCrashedRun.get("secret-cipher-key"));
            assertThat(Files.readString(state.internalJwtKeys().resolve("verify-keys.json")))
                    .isEqualTo(secretsOfTheCrashedRun.get("internal-jwt.verify-keys"));
            assertThat(Files.readString(state.internalJwtKeys().resolve("signing-key-id")))
                    .isEqualTo("local1");
            Map<String, String> gateway = environmentOf(config.gatewayPort());
            Map<String, String> posts = environmentOf(config.port(HeraldService.POSTS));
            int pg = config.postgresPort();
            assertThat(posts)
                    .doesNotContainKey("QUARKUS_MANAGEMENT_PORT")
                    .containsEntry("QUARKUS_HTTP_HOST", "127.0.0.1")
                    .containsEntry("QUARKUS_HTTP_PORT", Integer.toString(config.port(HeraldService.POSTS)))
                    .containsEntry("KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:" + config.kafkaPort())
                    .containsEntry("QUARKUS_DATASOURCE_REACTIVE_URL", "postgresql://127.0.0.1:" + pg + "/herald_posts")
                    .containsEntry("QUARKUS_DATASOURCE_JDBC_URL", "jdbc:postgresql://127.0.0.1:" + pg + "/herald_posts")
                    .containsEntry("QUARKUS_DATASOURCE_USERNAME", "postgres")
                    .containsEntry("HERALD_CURSOR_SECRET", secretsOfTheCrashedRun.get("cursor-secret"))
                    .containsEntry(
                            "HERALD_SECRET_CIPHER_KEY_DIRECTORY",
                            state.cipherKeys().toString())
                    .containsEntry(
                            "HERALD_INTERNAL_JWT_KEY_DIRECTORY",
                            state.internalJwtKeys().toString())
                    // Local media (the provider fakes' sample files) may be posted.
                    .containsEntry("HERALD_MEDIA_ALLOW_PRIVATE_URLS", "true")
                    .doesNotContainKeys(
                            "HERALD_ADMIN_TOKEN",
                            "HERALD_DEMO_TEST_KEY",
                            "HERALD_DEMO_LIVE_KEY",
                            "HERALD_DASHBOARD_DEMO_SIGN_IN_TOKEN",
                            "HERALD_WEBHOOKS_ALLOW_PRIVATE_URLS");
            // Local runs deliver webhooks to local receivers.
            assertThat(environmentOf(config.port(HeraldService.WEBHOOKS)))
                    .containsEntry("HERALD_WEBHOOKS_ALLOW_PRIVATE_URLS", "true")
                    .doesNotContainKey("HERALD_MEDIA_ALLOW_PRIVATE_URLS");
            assertThat(environmentOf(config.port(HeraldService.DELIVERY_WORKER)))
                    .containsEntry("HERALD_MEDIA_ALLOW_PRIVATE_URLS", "true");
            // Local logos for the connect page's branding, on accounts-service only.
            assertThat(environmentOf(config.port(HeraldService.ACCOUNTS)))
                    .containsEntry("HERALD_BRANDING_ALLOW_PRIVATE_URLS", "true")
                    .doesNotContainKey("HERALD_MEDIA_ALLOW_PRIVATE_URLS");
            // mcp-server has no database; it calls the public API at the gateway.
            assertThat(environmentOf(config.port(HeraldService.MCP_SERVER)))
                    .containsEntry("HERALD_MCP_GATEWAY_URL", "http://127.0.0.1:" + config.gatewayPort())
                    .doesNotContainKey("QUARKUS_DATASOURCE_JDBC_URL");
            assertThat(gateway)
                    .containsEntry("QUARKUS_HTTP_PORT", Integer.toString(config.gatewayPort()))
                    .containsEntry("QUARKUS_MANAGEMENT_HOST", "127.0.0.1")
                    .containsEntry(
                            "QUARKUS_MANAGEMENT_PORT",
                            Integer.toString(config.managementPort(HeraldService.API_GATEWAY)))
                    .containsEntry(
                            "QUARKUS_DATASOURCE_JDBC_URL", "jdbc:postgresql://127.0.0.1:" + pg + "/herald_gateway")
                    .containsEntry("HERALD_ADMIN_TOKEN", suite.adminToken())
                    .containsEntry("HERALD_DEMO_TEST_KEY", suite.demoTestKey())
                    .containsEntry("HERALD_DEMO_LIVE_KEY", suite.demoLiveKey())
                    .containsEntry(
                            "HERALD_DASHBOARD_DEMO_SIGN_IN_TOKEN",
                            suite.secrets().dashboardSignInToken())
                    .containsEntry(
                            "HERALD_SERVICES_PROFILES_URL", "http://127.0.0.1:" + config.port(HeraldService.PROFILES))
                    .containsEntry(
                            "HERALD_SERVICES_ACCOUNTS_URL", "http://127.0.0.1:" + config.port(HeraldService.ACCOUNTS))
                    .containsEntry("HERALD_SERVICES_POSTS_URL", "http://127.0.0.1:" + config.port(HeraldService.POSTS))
                    .containsEntry(
                            "HERALD_SERVICES_WEBHOOKS_URL", "http://127.0.0.1:" + config.port(HeraldService.WEBHOOKS))
                    .containsEntry("HERALD_SERVICES_USAGE_URL", "http://127.0.0.1:" + config.port(HeraldService.USAGE))
                    .containsEntry(
                            "HERALD_SERVICES_MCP_URL", "http://127.0.0.1:" + config.port(HeraldService.MCP_SERVER));
            assertThat(databases(suite))
                    .contains(
                            "herald_gateway",
                            "herald_profiles",
                            "herald_accounts",
                            "herald_posts",
                            "herald_delivery",
                            "herald_webhooks",
                            "herald_usage");
            // ./herald up's PostgreSQL commits as a production server does: synced to disk, synchronously.
            assertThat(setting(suite, "fsync")).isEqualTo("on");
            assertThat(setting(suite, "synchronous_commit")).isEqualTo("on");
            // A slow autovacuum run shows in postgres.log, next to the latency it may explain.
            assertThat(setting(suite, "log_autovacuum_min_duration")).isEqualTo("250ms");
            assertThat(pidFiles(state))
                    .containsExactlyInAnyOrder(
                            "api-gateway.pid",
                            "profiles-service.pid",
                            "accounts-service.pid",
                            "posts-service.pid",
                            "delivery-worker.pid",
                            "webhooks-service.pid",
                            "usage-service.pid",
                            "mcp-server.pid",
                            "postgres.pid",
                            "kafka.pid");

            // A second suite on the same state directory is refused instead of killing this one's processes.
            assertThat(catchThrowableOfType(() -> LocalSuite.start(config), LocalSuiteStartException.class))
                    .hasMessageContaining("is in use by a running suite");
            assertThat(suite.isRunning("posts-service")).isTrue();

            // Services can be stopped, killed and started again (what fault tests do).
            suite.stop("posts-service");
            assertThat(FreePorts.isListening(config.port(HeraldService.POSTS))).isFalse();
            assertThat(state.pidFile("posts-service")).doesNotExist();
            suite.start("posts-service");
            assertThat(readiness(config.port(HeraldService.POSTS))).isEqualTo(200);
            suite.kill("usage-service");
            assertThat(suite.isRunning("usage-service")).isFalse();
            suite.start("usage-service");
            assertThat(readiness(config.port(HeraldService.USAGE))).isEqualTo(200);
            // The gateway was awaited on its management port: its public one answers nothing under /q.
            assertThat(readiness(config.managementPort(HeraldService.API_GATEWAY)))
                    .isEqualTo(200);
            assertThat(readiness(config.gatewayPort())).isEqualTo(404);
            assertThat(Files.readString(suite.logFile("usage-service"))).contains("listening on");
        }

        assertNothingListens(config);
        assertThat(pidFiles(state)).isEmpty();
    }

    @Test
    void aServiceThatFailsIsNamedWithItsLogAndNothingIsLeftRunning() throws Exception {
        // posts-service goes through the real quarkus-run.jar command, with a jar that is not one.
        Path project = temp.resolve("project");
        Path bogusJar = project.resolve("posts-service/target/quarkus-app/quarkus-run.jar");
        Files.createDirectories(bogusJar.getParent());
        Files.writeString(bogusJar, "this is not a jar");
        ServiceCommand real = ServiceCommand.quarkusJar(project);
        ServiceCommand fake = FakeService.Command.allReady();
        // The crash test covers stopping an embedded broker; here a broker nobody connects to saves its start.
        LocalSuiteConfig config = fakeSuite()
                .existingKafka("127.0.0.1:9")
                .serviceCommand(new ServiceCommand() {
                    @Override
                    public List<String> commandLine(HeraldService service) {
                        return service == HeraldService.POSTS ? real.commandLine(service) : fake.commandLine(service);
                    }

                    @Override
                    public String processMarker(HeraldService service) {
                        return service == HeraldService.POSTS
                                ? real.processMarker(service)
                                : fake.processMarker(service);
                    }

                    @Override
                    public Optional<Path> workingDirectory(HeraldService service) {
                        return service == HeraldService.POSTS
                                ? real.workingDirectory(service)
                                : fake.workingDirectory(service);
                    }
                })
                .build();

        LocalSuiteStartException failure =
                catchThrowableOfType(() -> LocalSuite.start(config), LocalSuiteStartException.class);

        Path log = config.state().log("posts-service");
        assertThat(failure.component()).isEqualTo("posts-service");
        assertThat(failure)
                .hasMessageContaining("posts-service exited with code 1 before it was ready")
                .hasMessageContaining(log.toString());
        assertThat(Files.readString(log)).contains("Invalid or corrupt jarfile");
        assertNothingListens(config);
        assertThat(pidFiles(config.state())).isEmpty();
        assertThat(childProcesses()).isEmpty();
    }

    @Test
    void aServiceThatNeverGetsReadyTimesOutWithItsLastAnswer() throws Exception {
        LocalSuiteConfig config = fakeSuite()
                .existingKafka("127.0.0.1:9") // the fakes never connect; saves starting a broker
                .serviceCommand(new FakeService.Command(Map.of(HeraldService.WEBHOOKS, "never-ready")))
                // Long enough for the other fakes to come up on a busy machine (2 s was not, under load).
                .readinessTimeout(java.time.Duration.ofSeconds(15))
                .build();

        assertThatThrownBy(() -> LocalSuite.start(config))
                .hasMessageContaining("webhooks-service was not ready within 15 s (last readiness answer: HTTP 503)")
                .hasMessageContaining(config.state().log("webhooks-service").toString());
        assertNothingListens(config);
    }

    @Test
    void aPortTakenByAnotherProcessIsRefusedBeforeAnythingStarts() throws Exception {
        LocalSuiteConfig config = fakeSuite().build();
        try (ServerSocket squatter =
                new ServerSocket(config.port(HeraldService.ACCOUNTS), 1, InetAddress.getLoopbackAddress())) {
            assertThatThrownBy(() -> LocalSuite.start(config))
                    .isInstanceOf(LocalSuiteStartException.class)
                    .hasMessageContaining(
                            "accounts-service cannot listen on 127.0.0.1:" + config.port(HeraldService.ACCOUNTS))
                    .hasMessageContaining("already in use by another process");
        }
        assertThat(FreePorts.isListening(config.postgresPort())).isFalse();
        assertThat(Files.exists(config.state().postgresData())).isFalse();
    }

    @Test
    void anUnbuiltServiceIsReportedBeforeAnythingStarts() {
        LocalSuiteConfig config = fakeSuite()
                .serviceCommand(ServiceCommand.quarkusJar(temp.resolve("empty")))
                .build();

        assertThatThrownBy(() -> LocalSuite.start(config))
                .hasMessageContaining("api-gateway cannot start: "
                        + temp.resolve("empty/api-gateway/target/quarkus-app/quarkus-run.jar")
                        + " does not exist; build it with ./mvnw -DskipTests install");
        assertThat(Files.exists(config.state().postgresData())).isFalse();
    }

    private LocalSuiteConfig.Builder fakeSuite() {
        return LocalSuiteConfig.builder(PROJECT_ROOT)
                .stateDir(temp.resolve("state"))
                .freePorts()
                .serviceCommand(FakeService.Command.allReady())
                .progress(line -> System.out.println(java.time.LocalTime.now() + " suite: " + line));
    }

    /** Starts the suite in another JVM and SIGKILLs that JVM once ready; returns the pids it left running. */
    private Map<String, Long> runAndCrash(LocalSuiteConfig config) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                JavaCommand.launcher(),
                "-cp",
                System.getProperty("java.class.path"),
                SuiteInAnotherJvm.class.getName()));
        command.addAll(List.of(SuiteInAnotherJvm.arguments(config)));
        Process supervisor =
                new ProcessBuilder(command).redirectErrorStream(true).start();
        try (BufferedReader output =
                new BufferedReader(new InputStreamReader(supervisor.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = output.readLine()) != null && !line.equals("READY")) {
                System.out.println(java.time.LocalTime.now() + " crashing run: " + line);
            }
            assertThat(line).as("the suite in the other JVM got ready").isEqualTo("READY");
            Map<String, Long> pids = new HashMap<>();
            for (String file : pidFiles(config.state())) {
                pids.put(
                        file,
                        StateDirectory.readPid(config.state().pids().resolve(file))
                                .getAsLong());
            }
            supervisor.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            assertThat(pids)
                    // Every service, the broker and the database.
                    .hasSize(HeraldService.values().length + 2)
                    .allSatisfy((file, pid) -> assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive))
                            .as(file)
                            .contains(true));
            return pids;
        }
    }

    private Map<String, String> environmentOf(int port) throws Exception {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/env"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        Map<String, String> env = new HashMap<>();
        response.body()
                .lines()
                .forEach(line -> env.put(line.substring(0, line.indexOf('=')), line.substring(line.indexOf('=') + 1)));
        return env;
    }

    private int readiness(int port) throws Exception {
        return http.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/q/health/ready"))
                                .build(),
                        HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }

    private static List<String> databases(LocalSuite suite) throws Exception {
        List<String> names = new ArrayList<>();
        try (Connection connection = suite.postgres().connect("postgres");
                ResultSet rows = connection.createStatement().executeQuery("select datname from pg_database")) {
            while (rows.next()) {
                names.add(rows.getString(1));
            }
        }
        return names;
    }

    private static String setting(LocalSuite suite, String name) throws Exception {
        try (Connection connection = suite.postgres().connect("postgres");
                ResultSet rows = connection.createStatement().executeQuery("show " + name)) {
            rows.next();
            return rows.getString(1);
        }
    }

    private static Map<String, String> properties(Path file) throws Exception {
        java.util.Properties properties = new java.util.Properties();
        try (var reader = Files.newBufferedReader(file)) {
            properties.load(reader);
        }
        Map<String, String> map = new HashMap<>();
        properties.stringPropertyNames().forEach(name -> map.put(name, properties.getProperty(name)));
        return map;
    }

    private static List<String> pidFiles(StateDirectory state) throws Exception {
        if (!Files.isDirectory(state.pids())) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(state.pids())) {
            return files.map(file -> file.getFileName().toString()).toList();
        }
    }

    private static void assertNothingListens(LocalSuiteConfig config) {
        assertThat(config.listeningPorts())
                .allSatisfy((component, port) -> assertThat(FreePorts.isListening(port))
                        .as(component + " on " + port)
                        .isFalse());
    }

    /** Children of this test JVM that are still alive (the surefire JVM starts none of its own). */
    private static List<String> childProcesses() {
        return ProcessHandle.current()
                .children()
                .filter(ProcessHandle::isAlive)
                .map(p -> p.pid() + " " + p.info().commandLine().orElse("?"))
                .toList();
    }
}
