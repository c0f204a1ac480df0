package dev.herald.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StaleProcessesTest {
    @TempDir
    Path root;

    private StateDirectory state;
    private final List<Process> started = new ArrayList<>();
    private final List<String> progress = new ArrayList<>();

    @BeforeEach
    void createState() throws Exception {
        state = new StateDirectory(root.resolve(".herald"));
        state.create();
    }

    @AfterEach
    void stopStartedProcesses() {
        started.forEach(process -> {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        });
    }

    @Test
    void aPidFileOfAProcessThatIsGoneIsRemoved() throws Exception {
        Process exited = start("true");
        exited.waitFor();
        StateDirectory.writePid(state.pidFile("posts-service"), exited.pid());

        List<String> stopped =
                reaper(Map.of("posts-service", "quarkus-run.jar")).reap();

        assertThat(stopped).isEmpty();
        assertThat(state.pidFile("posts-service")).doesNotExist();
    }

    @Test
    void aPidFilePointingAtAnUnrelatedLiveProcessDoesNotGetItKilled() throws Exception {
        // The pid was recycled: it now belongs to something that is not our posts-service.
        Process unrelated = start("sleep", "60");
        StateDirectory.writePid(state.pidFile("posts-service"), unrelated.pid());

        List<String> stopped = reaper(
                        Map.of("posts-service", root + "/posts-service/target/quarkus-app/quarkus-run.jar"))
                .reap();

        assertThat(stopped).isEmpty();
        assertThat(unrelated.isAlive()).isTrue();
        assertThat(state.pidFile("posts-service")).doesNotExist();
        assertThat(progress).anyMatch(line -> line.contains("leaving pid " + unrelated.pid() + " alone"));
    }

    @Test
    void aLeftoverProcessOfOursIsStoppedTogetherWithItsChildren() throws Exception {
        String marker = "herald-test-" + UUID.randomUUID();
        // The shell stays (something follows the sleep) and carries the marker; the sleep is its child.
        Process leftover = start("sh", "-c", "sleep 60; echo " + marker);
        awaitChild(leftover);
        List<ProcessHandle> children = leftover.descendants().toList();
        StateDirectory.writePid(state.pidFile("delivery-worker"), leftover.pid());

        List<String> stopped = reaper(Map.of("delivery-worker", marker)).reap();

        assertThat(stopped).containsExactly("delivery-worker (pid " + leftover.pid() + ")");
        // The process is dead once reap() returns, but this JVM learns it only when its own reaper thread has waited
        // for its child: until then isAlive() still answers true (a CI flake).
        assertThat(leftover.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        // Killed orphans may linger as zombies until init reaps them; they count as gone.
        assertThat(children).isNotEmpty().noneMatch(ProcessTree::running);
        assertThat(state.pidFile("delivery-worker")).doesNotExist();
    }

    @Test
    void aPidFileOfAnUnknownComponentIsLeftAlone() throws Exception {
        Process unknown = start("sleep", "60");
        StateDirectory.writePid(state.pidFile("something-else"), unknown.pid());

        reaper(Map.of("posts-service", "quarkus-run.jar")).reap();

        assertThat(unknown.isAlive()).isTrue();
        assertThat(state.pidFile("something-else")).exists();
    }

    @Test
    void garbageInAPidFileIsTreatedAsNoPid() throws Exception {
        Files.writeString(state.pidFile("kafka"), "not a pid\n");

        assertThat(reaper(Map.of("kafka", "server.properties")).reap()).isEmpty();
        assertThat(state.pidFile("kafka")).doesNotExist();
    }

    private StaleProcesses reaper(Map<String, String> markers) {
        return new StaleProcesses(state, markers, Duration.ofSeconds(5), progress::add);
    }

    private Process start(String... command) throws Exception {
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        started.add(process);
        return process;
    }

    private static void awaitChild(Process parent) throws InterruptedException {
        for (int i = 0; i < 100 && parent.descendants().findAny().isEmpty(); i++) {
            Thread.sleep(20);
        }
    }
}
