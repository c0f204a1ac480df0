package dev.herald.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The supervisor of a running suite against real processes: an embedded PostgreSQL and {@link FakeService}s in place
 * of the Quarkus services, SIGKILLed from outside as a crash (or the OOM killer) would end them. Kafka and the real
 * services are crashed under load by system-tests' CrashRecoveryIT.
 */
class CrashSupervisorTest {
    private static final Path PROJECT_ROOT =
            Path.of(System.getProperty("herald.root", "../..")).toAbsolutePath().normalize();
    private final HttpClient http = HttpClient.newHttpClient();

    @TempDir
    Path temp;

    @Test
    void crashedComponentsComeBackByThemselvesAndACrashLoopIsLeftDownWithItsLog() throws Exception {
        Path settings = temp.resolve("profiles.settings");
        Files.writeString(settings, "fine");
        LocalSuiteConfig config = LocalSuiteConfig.builder(PROJECT_ROOT)
                .stateDir(temp.resolve("state"))
                .freePorts()
                .existingKafka("127.0.0.1:9") // the fakes never connect; saves starting a broker
                .serviceCommand(FakeService.Command.allReady())
                .serviceEnvironment(HeraldService.PROFILES, Map.of("HERALD_FAKE_SETTINGS", settings.toString()))
                .progress(line -> System.out.println(java.time.LocalTime.now() + " suite: " + line))
                .build();
        StateDirectory state = config.state();

        try (LocalSuite suite = LocalSuite.start(config)) {
            // A service killed from outside is started again and gets ready.
            long usage = pid(state, "usage-service");
            ProcessTree.of(usage).orElseThrow().kill();
            awaitReplaced(state, "usage-service", usage);
            await("usage-service ready again", () -> readiness(config.port(HeraldService.USAGE)) == 200);

            // PostgreSQL killed from outside is started again on its data; the services are left running.
            long postmaster = pid(state, "postgres");
            long posts = pid(state, "posts-service");
            ProcessTree.of(postmaster).orElseThrow().kill();
            awaitReplaced(state, "postgres", postmaster);
            try (Connection connection = suite.postgres().connect("herald_posts")) {
                assertThat(connection.isValid(5)).isTrue();
            }
            assertThat(pid(state, "posts-service"))
                    .as("posts-service was not restarted")
                    .isEqualTo(posts);

            // A service that cannot start any more (a broken setting) is tried again with a growing backoff
            // (1, 2, 4, 8 s), then left down at its fifth crash.
            Files.writeString(settings, "broken");
            ProcessTree.of(pid(state, "profiles-service")).orElseThrow().kill();
            await(
                    "profiles-service left down as a crash loop",
                    () -> supervision(state, "profiles-service").state() == CrashSupervisor.State.CRASH_LOOP);
            Thread.sleep(2 * CrashSupervisor.POLL_INTERVAL.toMillis());
            assertThat(suite.isRunning("profiles-service")).as("left down").isFalse();

            ByteArrayOutputStream output = new ByteArrayOutputStream();
            int exit = new StatusCommand(config, new PrintStream(output, true, StandardCharsets.UTF_8)).run();
            String status = output.toString(StandardCharsets.UTF_8);
            System.out.println(status);

            assertThat(exit).as("status of a suite with a crash loop").isEqualTo(1);
            assertThat(line(status, "usage-service")).contains("ready", " 1 ", "signal 9 (SIGKILL)");
            assertThat(line(status, "postgres")).contains("running", " 1 ", "unknown: not a child");
            assertThat(line(status, "posts-service")).contains("ready", " 0 ");
            assertThat(line(status, "profiles-service")).contains("crash loop: left down", " 4 ", "exit code 1");
            assertThat(status)
                    .contains("profiles-service was left down: it crashed 5 times within 5 min (a crash loop); find"
                            + " the cause in " + state.log("profiles-service"))
                    .contains("Last lines of " + state.log("profiles-service"))
                    .contains("Failed to start application: invalid value 'broken' for herald.fake.setting")
                    .contains("Herald is degraded");
            assertThat(Files.readString(state.log("herald")))
                    .contains("usage-service exited (signal 9 (SIGKILL))")
                    .contains("restarting usage-service (restart 1)")
                    .contains("restarting postgres (restart 1)")
                    .contains("restarting profiles-service (restart 4)")
                    .contains("profiles-service exited (exit code 1) after 0 s and is left down: it crashed 5 times")
                    .doesNotContain("restarting profiles-service (restart 5)");
        }

        // The supervisor stopped before the suite did: nothing it stopped was started again.
        assertThat(config.listeningPorts())
                .allSatisfy((component, port) -> assertThat(FreePorts.isListening(port))
                        .as(component + " on " + port)
                        .isFalse());
        assertThat(ProcessHandle.current().children().filter(ProcessHandle::isAlive))
                .isEmpty();
    }

    private static long pid(StateDirectory state, String component) {
        return StateDirectory.readPid(state.pidFile(component)).orElseThrow();
    }

    private static SupervisionRecord.Row supervision(StateDirectory state, String component) {
        try {
            return SupervisionRecord.read(state).get(component);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Waits until the supervisor has replaced the killed process with a live one (a new pid in its pid file). */
    private static void awaitReplaced(StateDirectory state, String component, long killed) throws Exception {
        await(component + " restarted", () -> {
            var pid = StateDirectory.readPid(state.pidFile(component));
            return pid.isPresent()
                    && pid.getAsLong() != killed
                    && ProcessTree.of(pid.getAsLong()).isPresent()
                    && supervision(state, component).state() == CrashSupervisor.State.RUNNING;
        });
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 90 s: " + what);
            }
            Thread.sleep(100);
        }
    }

    private int readiness(int port) {
        try {
            return http.send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/q/health/ready"))
                                    .build(),
                            HttpResponse.BodyHandlers.discarding())
                    .statusCode();
        } catch (java.io.IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    private static String line(String status, String component) {
        return status.lines()
                .filter(line -> line.startsWith(component + " "))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no line for " + component + " in\n" + status));
    }
}
