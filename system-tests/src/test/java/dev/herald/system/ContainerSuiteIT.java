package dev.herald.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.herald.local.HeraldService;
import dev.herald.local.JavaCommand;
import dev.herald.local.LocalSuite;
import dev.herald.local.LocalSuiteConfig;
import dev.herald.local.PodmanCommand;
import dev.herald.local.StateDirectory;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The suite from its images, as the Helm chart runs it ({@code ./herald up --containers}): every service in a podman
 * container with a read-only root filesystem, user 185, no capabilities and a tmpfs only at {@code /tmp}, against the
 * embedded PostgreSQL and Kafka on 127.0.0.1. A post goes through the gateway to published; then each container is
 * sent SIGTERM and must stop by itself, within the chart's terminationGracePeriodSeconds, with a clean exit and
 * Quarkus's shutdown line in its log.
 *
 * <p>Its own suite (the shared {@link RunningSuite} runs plain processes), started once for the class. Runs only where
 * the images were built in the same build: {@code ./mvnw verify -Dherald.images} (the root pom's local-images
 * profile), on a machine with podman.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ContainerSuiteIT {
    /**
     * Where each container's output (podman run's, which is the service's log) and the suite's own log are kept after
     * the run, relative to the module (failsafe's working directory): the state directory is a temporary one.
     */
    static final Path KEPT_LOGS = Path.of("target", "container-suite-logs");

    private static LocalSuite suite;
    private static Path stateDir;

    @BeforeAll
    static void startFromImages(@TempDir Path state) {
        stateDir = state;
        assumeTrue(
                System.getProperty("herald.images") != null && Files.isExecutable(Path.of("/usr/bin/podman")),
                "the images are built and run with ./mvnw verify -Dherald.images, where podman is installed");
        Path root = Path.of(System.getProperty("herald.root", ".."))
                .toAbsolutePath()
                .normalize();
        suite = LocalSuite.start(LocalSuiteConfig.builder(root)
                .stateDir(state)
                .freePorts()
                .serviceCommand(new PodmanCommand(root))
                .serviceEnvironment(containerEnvironment())
                .stopGracePeriod(Duration.ofSeconds(PodmanCommand.TERMINATION_GRACE_SECONDS + 5))
                // As long as the chart's startupProbe waits for a pod: eight containers starting among the other
                // system tests' suite took up to 345 s on two cores loaded by other builds as well.
                .readinessTimeout(Duration.ofSeconds(
                        Integer.getInteger("herald.suite.readiness-seconds", PodmanCommand.STARTUP_SECONDS)))
                .build());
    }

    /** Test settings only, none of them the chart's. */
    private static Map<String, String> containerEnvironment() {
        Map<String, String> environment = new HashMap<>();
        // Flyway's first JDBC connection may wait 5 s for PostgreSQL by default; eight JVMs starting at once on a
        // loaded 2-core machine took longer, and a pod would merely be restarted.
        environment.put("QUARKUS_DATASOURCE_JDBC_ACQUISITION_TIMEOUT", "60S");
        // The build's test JVMs, and the JVMs they start, use the quick compiler only (pom.xml: a JVM that mostly
        // starts up spends far less CPU without C2); a container's java reads its options from JAVA_TOOL_OPTIONS.
        String childJvmOptions =
                System.getProperty(JavaCommand.EXTRA_OPTIONS, "").strip();
        if (!childJvmOptions.isEmpty()) {
            environment.put("JAVA_TOOL_OPTIONS", childJvmOptions);
        }
        return environment;
    }

    @AfterAll
    static void stop() throws IOException {
        try {
            if (suite != null) {
                suite.close();
            }
        } finally {
            keepLogs();
        }
    }

    /**
     * Copies the logs out of the temporary state directory, whatever the outcome (JUnit runs this after a failed start
     * too): a container that exits during its start leaves nothing else behind, as {@code podman run --rm} removes it.
     */
    private static void keepLogs() throws IOException {
        Path logDirectory = stateDir == null ? null : new StateDirectory(stateDir).logs();
        if (logDirectory == null || !Files.isDirectory(logDirectory)) {
            return;
        }
        Files.createDirectories(KEPT_LOGS);
        try (Stream<Path> logs = Files.list(logDirectory)) {
            for (Path log : logs.filter(Files::isRegularFile).toList()) {
                Files.copy(log, KEPT_LOGS.resolve(log.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    private static RequestSpecification demo() {
        return RestAssured.given()
                .baseUri(suite.baseUrl())
                .header("Authorization", "Bearer " + suite.demoTestKey())
                .contentType(ContentType.JSON);
    }

    @Test
    @Order(1)
    void aPostPublishesThroughTheContainers() throws InterruptedException {
        String body = "{\"platform\":\"linkedin\",\"username\":\"containers\"}";
        Response created = demo().body(body).post("/accounts");
        for (int attempt = 1; created.statusCode() == 503 && attempt < 20; attempt++) {
            // The API's transient answer, which clients retry: just after the start, accounts-service's first calls
            // to usage-service can outlast their timeout on a loaded machine (as in PostsPipelineIT).
            Thread.sleep(3000);
            created = demo().body(body).post("/accounts");
        }
        String account = created.then().statusCode(201).extract().path("data.id");
        String post = demo().header("Idempotency-Key", UUID.randomUUID().toString())
                .body("{\"text\":\"Hello from the images\",\"account_ids\":[\"" + account + "\"]}")
                .post("/posts")
                .then()
                .statusCode(202)
                .body("data.status", equalTo("queued"))
                .extract()
                .path("data.id");
        Instant deadline = Instant.now().plusSeconds(60);
        String status = "queued";
        while (!status.equals("published") && Instant.now().isBefore(deadline)) {
            Thread.sleep(300);
            status = demo().get("/posts/" + post)
                    .then()
                    .statusCode(200)
                    .extract()
                    .path("data.status");
        }
        assertThat(status).isEqualTo("published");
    }

    @Test
    @Order(2)
    void eachContainerAnswersTheChartsProbes() {
        // The paths of the chart's startupProbe, livenessProbe and readinessProbe (ChartInPodmanTest ties the rest).
        suite.managementPorts().forEach((module, port) -> {
            for (String probe : new String[] {"/q/health/started", "/q/health/live", "/q/health/ready"}) {
                RestAssured.given()
                        .baseUri("http://127.0.0.1:" + port)
                        .get(probe)
                        .then()
                        .statusCode(200)
                        .body("status", equalTo("UP"));
            }
        });
    }

    @Test
    @Order(3)
    void eachContainerStopsCleanlyOnSigterm() throws IOException {
        for (HeraldService service : HeraldService.values()) {
            Instant signalled = Instant.now();
            // SIGTERM to podman run, which passes it to the container's java, as the kubelet's stop does.
            suite.stop(service.module());
            Duration took = Duration.between(signalled, Instant.now());
            assertThat(suite.isRunning(service.module())).as(service.module()).isFalse();
            // 143 is 128 + SIGTERM: what the JVM answers when its shutdown hooks finished after that signal.
            assertThat(suite.exitCode(service.module()))
                    .as(service.module() + "'s exit code")
                    .isIn(0, 143);
            assertThat(took)
                    .as(service.module() + " stopped within the chart's grace")
                    .isLessThan(Duration.ofSeconds(PodmanCommand.TERMINATION_GRACE_SECONDS));
            assertThat(Files.readString(suite.logFile(service.module())))
                    .as(service.module() + "'s log")
                    .contains("stopped in");
        }
    }
}
