package dev.herald.local;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Stops what a previous run left behind: the processes named by {@code pids/*.pid} (and PostgreSQL's own
 * {@code postmaster.pid}) that are still alive. A process is only stopped when its command line still contains
 * the marker expected for that component; a pid that the system has meanwhile handed to an unrelated process is
 * left alone and only the pid file is removed.
 */
public final class StaleProcesses {
    private final StateDirectory state;
    private final Map<String, String> markers;
    private final Duration grace;
    private final Consumer<String> progress;

    /**
     * @param markers component name (the pid file's name without {@code .pid}) to the text its command line
     *                contains
     */
    public StaleProcesses(
            StateDirectory state, Map<String, String> markers, Duration grace, Consumer<String> progress) {
        this.state = state;
        this.markers = Map.copyOf(markers);
        this.grace = grace;
        this.progress = progress;
    }

    /** The markers of every process a suite with this configuration starts. */
    public static Map<String, String> markersOf(LocalSuiteConfig config) {
        Map<String, String> markers = new LinkedHashMap<>();
        for (HeraldService service : HeraldService.values()) {
            markers.put(service.module(), config.serviceCommand().processMarker(service));
        }
        // Whether or not this run asks for them: the fakes of an earlier run are leftovers too.
        markers.put(
                ProviderFakes.MODULE, ProviderFakes.jar(config.projectRoot()).toString());
        // The postmaster runs as "postgres -D <data dir> ...", the broker with its server.properties path.
        markers.put("postgres", config.state().postgresData().toString());
        markers.put("kafka", KafkaBroker.processMarker(config.state().kafkaWork()));
        return markers;
    }

    /**
     * Stops every stale process: the services together first, so that nothing is still writing when Kafka and
     * then PostgreSQL go.
     *
     * @return one line per process that was stopped
     */
    public List<String> reap() throws IOException, InterruptedException {
        Map<Integer, Map<String, ProcessTree>> byOrder = new TreeMap<>();
        for (Path pidFile : pidFiles()) {
            String component = name(pidFile);
            String marker = markers.get(component);
            if (marker == null) {
                progress.accept("ignoring " + pidFile + ": not a component of this suite");
                continue;
            }
            ours(component, StateDirectory.readPid(pidFile), marker)
                    .ifPresent(
                            process -> byOrder.computeIfAbsent(shutdownOrder(component), order -> new LinkedHashMap<>())
                                    .put(component, process));
            Files.deleteIfExists(pidFile);
        }
        // A supervisor killed before it recorded the postmaster still leaves PostgreSQL's own pid file.
        if (markers.containsKey("postgres")) {
            OptionalLong postmaster =
                    StateDirectory.readPid(state.postgresData().resolve("postmaster.pid"));
            ours("postgres", postmaster, markers.get("postgres"))
                    .ifPresent(process -> byOrder.computeIfAbsent(
                                    shutdownOrder("postgres"), order -> new LinkedHashMap<>())
                            .putIfAbsent("postgres", process));
        }
        List<String> stopped = new ArrayList<>();
        for (Map<String, ProcessTree> group : byOrder.values()) {
            group.forEach((component, process) ->
                    progress.accept("stopping leftover " + component + " (pid " + process.pid() + ")"));
            ProcessTree.stopAll(List.copyOf(group.values()), grace);
            group.forEach((component, process) -> stopped.add(component + " (pid " + process.pid() + ")"));
        }
        return stopped;
    }

    private Optional<ProcessTree> ours(String component, OptionalLong pid, String marker) {
        if (pid.isEmpty()) {
            return Optional.empty();
        }
        Optional<ProcessTree> process = ProcessTree.of(pid.getAsLong());
        if (process.isPresent() && !process.get().runs(marker)) {
            progress.accept("leaving pid " + pid.getAsLong() + " alone: it is no longer " + component);
            return Optional.empty();
        }
        return process;
    }

    private List<Path> pidFiles() throws IOException {
        List<Path> files = new ArrayList<>();
        if (!Files.isDirectory(state.pids())) {
            return files;
        }
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(state.pids(), "*.pid")) {
            stream.forEach(files::add);
        }
        return files;
    }

    private static String name(Path pidFile) {
        String file = pidFile.getFileName().toString();
        return file.substring(0, file.length() - ".pid".length());
    }

    private static int shutdownOrder(String component) {
        return switch (component) {
            case "kafka" -> 1;
            case "postgres" -> 2;
            default -> 0;
        };
    }
}
