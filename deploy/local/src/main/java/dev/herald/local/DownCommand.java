package dev.herald.local;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code ./herald down}: stops the supervisor of the state directory (which stops everything it started), then
 * whatever an earlier run left behind, and checks that no Herald port is listening anymore.
 */
final class DownCommand {
    private static final Duration SUPERVISOR_STOP_TIMEOUT = Duration.ofSeconds(60);

    private final Path root;
    private final Map<String, String> env;
    private final PrintStream out;
    private final PrintStream err;

    DownCommand(Path root, Map<String, String> env, PrintStream out, PrintStream err) {
        this.root = root;
        this.env = env;
        this.out = out;
        this.err = err;
    }

    int run() throws IOException, InterruptedException {
        LocalSuiteConfig config = LocalSuiteConfig.fromEnvironment(root, env).toBuilder()
                .progress(line -> out.println("  " + line))
                .build();
        StateDirectory state = config.state();
        if (!Files.isDirectory(state.root())) {
            out.println("Herald is not running (no " + state.root() + ").");
            return 0;
        }
        // Read before the supervisor exits: it removes the file, and its ports are the ones to check.
        Map<String, Integer> ports = SuiteProperties.portsOf(state, config);
        List<String> stopped = new ArrayList<>();
        Optional<ProcessTree> supervisor = Supervisor.of(state);
        if (supervisor.isPresent()) {
            long pid = supervisor.get().pid();
            out.println("Stopping the Herald supervisor (pid " + pid + ")...");
            supervisor.get().root().destroy();
            if (!awaitExit(supervisor.get().root(), SUPERVISOR_STOP_TIMEOUT)) {
                err.println(
                        "the supervisor did not stop within " + SUPERVISOR_STOP_TIMEOUT.toSeconds() + " s; killing it");
                supervisor.get().kill();
            }
            stopped.add("supervisor (pid " + pid + ") with everything it started");
        }
        Supervisor.removeFiles(state);

        try (FileChannel channel = FileChannel.open(
                        state.lock(), StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.READ);
                FileLock lock = channel.tryLock()) {
            if (lock == null) {
                String owner =
                        Files.readString(state.lock(), StandardCharsets.UTF_8).strip();
                err.println(state.root() + " is in use by process " + owner
                        + ", which was not started by ./herald up; not touching it");
                return 1;
            }
            stopped.addAll(new StaleProcesses(
                            state,
                            StaleProcesses.markersOf(config),
                            config.stopGracePeriod(),
                            line -> out.println("  " + line))
                    .reap());
            Files.deleteIfExists(state.suiteProperties());
            Files.deleteIfExists(state.supervision());
        }

        List<String> stillListening = awaitPortsClosed(ports, Duration.ofSeconds(10));
        out.println(stopped.isEmpty() ? "Herald was not running." : "Stopped: " + String.join(", ", stopped) + ".");
        if (!stillListening.isEmpty()) {
            err.println("Still listening: " + String.join(", ", stillListening)
                    + " (not started by this Herald, or stuck; check with ss -ltnp)");
            return 1;
        }
        out.println("No Herald port is listening anymore (" + ports.size() + " checked).");
        return 0;
    }

    private static List<String> awaitPortsClosed(Map<String, Integer> ports, Duration timeout)
            throws InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        while (true) {
            List<String> listening = new ArrayList<>();
            ports.forEach((component, port) -> {
                if (FreePorts.isListening(port)) {
                    listening.add(port + " (" + component + ")");
                }
            });
            if (listening.isEmpty() || Instant.now().isAfter(deadline)) {
                return listening;
            }
            Thread.sleep(250);
        }
    }

    private static boolean awaitExit(ProcessHandle process, Duration timeout) throws InterruptedException {
        try {
            process.onExit().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("waiting for pid " + process.pid() + " failed", e.getCause());
        }
    }
}
