package dev.herald.local;

import java.io.IOException;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code ./herald up | down | status}: runs the suite in the foreground as a supervisor process, stops a running
 * one, or reports on it. {@code --detach} is implemented by the {@code herald} script, which starts {@code up}
 * in the background and waits for the {@code ready} marker.
 */
public final class HeraldCli {
    static final int NOT_RUNNING = 3;
    private static final String SUPERVISOR_MARKER = HeraldCli.class.getName();
    private static final Duration SUPERVISOR_STOP_TIMEOUT = Duration.ofSeconds(60);

    private final Path root;
    private final Map<String, String> env;
    private final PrintStream out;
    private final PrintStream err;

    public HeraldCli(Path root, Map<String, String> env, PrintStream out, PrintStream err) {
        this.root = root;
        this.env = env;
        this.out = out;
        this.err = err;
    }

    public static void main(String[] args) {
        Path root =
                Path.of(System.getProperty("herald.root", "")).toAbsolutePath().normalize();
        int exitCode = new HeraldCli(root, System.getenv(), System.out, System.err).run(args);
        System.exit(exitCode);
    }

    public int run(String[] args) {
        if (args.length == 0 || List.of("help", "--help", "-h").contains(args[0])) {
            usage(out);
            return 0;
        }
        List<String> options = List.of(args).subList(1, args.length);
        try {
            return switch (args[0]) {
                case "up" -> up(options);
                case "down" -> down();
                case "status" -> status();
                default -> {
                    err.println("unknown command: " + args[0]);
                    usage(err);
                    yield 2;
                }
            };
        } catch (IllegalArgumentException e) {
            err.println("herald: " + e.getMessage());
            return 2;
        } catch (IOException e) {
            err.println("herald: " + e);
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("herald: interrupted");
            return 1;
        }
    }

    private static void usage(PrintStream stream) {
        stream.println("""
                Usage: ./herald <command>

                  up [--detach] [--fake-providers]
                                  build what is stale, start PostgreSQL, Kafka and every service, print the base URL
                                  and demo credentials; stays in the foreground (Ctrl-C stops everything) unless
                                  --detach, which returns once everything is ready. --fake-providers also starts
                                  provider-fakes and points live mode's OAuth and publishing at it
                  down            stop what 'up' started
                  status          show each component, its pid and readiness (exit 0 all up, 1 degraded,
                                  3 not running)

                State, logs and pids live in .herald/ (HERALD_STATE_DIR). Settings: HERALD_PORT, HERALD_POSTGRES_PORT,
                HERALD_DATABASE_URL, KAFKA_BOOTSTRAP_SERVERS, HERALD_DEMO_TEST_KEY, HERALD_DEMO_LIVE_KEY,
                HERALD_ADMIN_TOKEN, HERALD_FAKE_PROVIDERS_PORT; see docs/local-runtime.md.""");
    }

    // ---- up -------------------------------------------------------------------------------------------------

    private int up(List<String> options) throws IOException, InterruptedException {
        Set<String> known = Set.of("--background", "--fake-providers");
        for (String option : options) {
            if (option.equals("--detach")) {
                throw new IllegalArgumentException(
                        "--detach is handled by the ./herald script; run ./herald up --detach");
            }
            if (!known.contains(option)) {
                throw new IllegalArgumentException("unknown option for up: " + option);
            }
        }
        // Run by './herald up --detach': the script shows the credentials, so the log does not get them.
        boolean background = options.contains("--background");
        LocalSuiteConfig config = LocalSuiteConfig.fromEnvironment(root, env).toBuilder()
                .providerFakes(options.contains("--fake-providers"))
                .progress(line -> out.println("  " + line))
                .build();
        StateDirectory state = config.state();
        Optional<ProcessTree> running = supervisor(state);
        if (running.isPresent()) {
            err.println("Herald is already running (pid " + running.get().pid() + "); stop it with ./herald down");
            return 1;
        }
        state.create();
        Files.deleteIfExists(state.ready());
        long pid = ProcessHandle.current().pid();
        StateDirectory.writePid(state.supervisorPid(), pid);

        LocalSuite suite = LocalSuite.create(config);
        Thread shutdown = new Thread(() -> stopOnExit(suite, state), "herald-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdown);
        out.println("Starting Herald (" + config.projectRoot() + ")");
        Instant started = Instant.now();
        try {
            suite.startAll();
        } catch (LocalSuiteStartException e) {
            if (suite.isClosing()) {
                // A signal arrived while starting; the shutdown hook owns the exit now.
                Thread.currentThread().join();
            }
            Runtime.getRuntime().removeShutdownHook(shutdown);
            removeSupervisorFiles(state);
            err.println("Herald did not start: " + e.getMessage());
            return 1;
        }
        writeCredentials(state, suite);
        StateDirectory.writeAtomically(state.ready(), pid + "\n", false);
        out.println();
        out.println("Herald is up (" + Duration.between(started, Instant.now()).toSeconds() + " s).");
        out.println("  Base URL       " + suite.baseUrl());
        if (background) {
            out.println("  Credentials    " + state.credentials());
        } else {
            out.println("  Test API key   " + suite.demoTestKey());
            out.println("  Live API key   " + suite.demoLiveKey());
            out.println("  Admin token    " + suite.adminToken());
            out.println("  Credentials    " + state.credentials() + " (same values)");
        }
        if (config.providerFakes()) {
            out.println("  Fake providers " + config.providerFakesUrl() + " (requests at " + config.providerFakesUrl()
                    + "/_fakes/<platform>/requests)");
        }
        out.println("  Logs           " + state.logs() + "/<service>.log");
        if (!background) {
            out.println("Press Ctrl-C to stop (or run ./herald down in another terminal).");
        }
        watchServices(suite);
        return 0;
    }

    /** Blocks until the JVM exits (SIGTERM/SIGINT), reporting services that die meanwhile. */
    private void watchServices(LocalSuite suite) throws InterruptedException {
        Set<String> reported = new HashSet<>();
        while (!suite.isClosing()) {
            List<String> modules = new ArrayList<>(HeraldService.modules());
            if (suite.config().providerFakes()) {
                modules.add(ProviderFakes.MODULE);
            }
            for (String module : modules) {
                if (!suite.isRunning(module) && reported.add(module) && !suite.isClosing()) {
                    err.println("WARNING: " + module + " is no longer running; see " + suite.logFile(module));
                }
            }
            Thread.sleep(2000);
        }
        Thread.currentThread().join();
    }

    private void stopOnExit(LocalSuite suite, StateDirectory state) {
        out.println("Stopping Herald...");
        try {
            suite.close();
            out.println("Herald stopped.");
        } catch (RuntimeException e) {
            err.println("Stopping Herald failed: " + e.getMessage() + "; run ./herald down to clean up");
        } finally {
            try {
                removeSupervisorFiles(state);
            } catch (IOException e) {
                err.println("could not remove " + state.supervisorPid() + ": " + e.getMessage());
            }
        }
    }

    private static void removeSupervisorFiles(StateDirectory state) throws IOException {
        Files.deleteIfExists(state.ready());
        Files.deleteIfExists(state.supervisorPid());
    }

    private static void writeCredentials(StateDirectory state, LocalSuite suite) throws IOException {
        String text = "HERALD_BASE_URL=" + suite.baseUrl() + "\n"
                + "HERALD_DEMO_TEST_KEY=" + suite.demoTestKey() + "\n"
                + "HERALD_DEMO_LIVE_KEY=" + suite.demoLiveKey() + "\n"
                + "HERALD_ADMIN_TOKEN=" + suite.adminToken() + "\n"
                + (suite.config().providerFakes()
                        ? "HERALD_FAKE_PROVIDERS_URL=" + suite.providerFakesUrl() + "\n"
                        : "");
        StateDirectory.writeAtomically(state.credentials(), text, true);
    }

    // ---- down -----------------------------------------------------------------------------------------------

    private int down() throws IOException, InterruptedException {
        LocalSuiteConfig config = LocalSuiteConfig.fromEnvironment(root, env).toBuilder()
                .progress(line -> out.println("  " + line))
                .build();
        StateDirectory state = config.state();
        if (!Files.isDirectory(state.root())) {
            out.println("Herald is not running (no " + state.root() + ").");
            return 0;
        }
        // Read before the supervisor exits: it removes the file, and its ports are the ones to check.
        Map<String, Integer> ports = portsOf(state, config);
        List<String> stopped = new ArrayList<>();
        Optional<ProcessTree> supervisor = supervisor(state);
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
        removeSupervisorFiles(state);

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

    // ---- status ---------------------------------------------------------------------------------------------

    private int status() throws IOException {
        LocalSuiteConfig config = LocalSuiteConfig.fromEnvironment(root, env);
        StateDirectory state = config.state();
        Properties suite = suiteProperties(state);
        Map<String, Integer> ports = portsOf(state, config);
        Map<String, String> markers = StaleProcesses.markersOf(config);
        Optional<ProcessTree> supervisor = supervisor(state);

        List<String[]> rows = new ArrayList<>();
        int alive = 0;
        boolean allUp = supervisor.isPresent();
        rows.add(new String[] {
            "supervisor",
            supervisor.map(p -> Long.toString(p.pid())).orElse("-"),
            supervisor.isPresent() ? (Files.exists(state.ready()) ? "running" : "starting") : "not running",
            ""
        });
        if (supervisor.isPresent()) {
            alive++;
        }
        for (String component : List.of("postgres", "kafka")) {
            if ("existing".equals(suite.getProperty(component))) {
                rows.add(new String[] {component, "-", "existing server (not managed)", ""});
                continue;
            }
            Optional<ProcessTree> process = component(state, component, markers.get(component));
            alive += process.isPresent() ? 1 : 0;
            allUp &= process.isPresent();
            rows.add(new String[] {
                component,
                process.map(p -> Long.toString(p.pid())).orElse("-"),
                process.isPresent() ? "running" : "not running",
                ports.containsKey(component) ? "127.0.0.1:" + ports.get(component) : ""
            });
        }
        ReadinessProbe probe = new ReadinessProbe();
        Map<HeraldService, CompletableFuture<ReadinessProbe.Result>> readiness = new LinkedHashMap<>();
        Map<HeraldService, Optional<ProcessTree>> processes = new LinkedHashMap<>();
        for (HeraldService service : HeraldService.values()) {
            Optional<ProcessTree> process = component(state, service.module(), markers.get(service.module()));
            processes.put(service, process);
            if (process.isPresent()) {
                readiness.put(service, probe.probe(ports.getOrDefault(service.module(), config.port(service))));
            }
        }
        for (HeraldService service : HeraldService.values()) {
            Optional<ProcessTree> process = processes.get(service);
            int port = ports.getOrDefault(service.module(), config.port(service));
            String health;
            if (process.isEmpty()) {
                health = "not running";
                allUp = false;
            } else {
                alive++;
                ReadinessProbe.Result result = readiness.get(service).join();
                health = result.ready() ? "ready" : "not ready (" + result + ")";
                allUp &= result.ready();
            }
            rows.add(new String[] {
                service.module(),
                process.map(p -> Long.toString(p.pid())).orElse("-"),
                health,
                "http://127.0.0.1:" + port
            });
        }
        if (alive == 0) {
            out.println("Herald is not running.");
            return NOT_RUNNING;
        }
        String fakesUrl = suite.getProperty("provider-fakes.url");
        if (fakesUrl != null) {
            Optional<ProcessTree> process = component(state, ProviderFakes.MODULE, markers.get(ProviderFakes.MODULE));
            ReadinessProbe.Result result = process.isEmpty()
                    ? null
                    : probe.probe(Integer.parseInt(fakesUrl.substring(fakesUrl.lastIndexOf(':') + 1)))
                            .join();
            alive += process.isPresent() ? 1 : 0;
            allUp &= result != null && result.ready();
            rows.add(new String[] {
                ProviderFakes.MODULE,
                process.map(p -> Long.toString(p.pid())).orElse("-"),
                result == null ? "not running" : result.ready() ? "ready" : "not ready (" + result + ")",
                fakesUrl
            });
        }
        out.printf("%-18s %-8s %-28s %s%n", "COMPONENT", "PID", "STATE", "ADDRESS");
        rows.forEach(row -> out.printf("%-18s %-8s %-28s %s%n", (Object[]) row));
        if (allUp) {
            out.println("Herald is up: " + suite.getProperty("gateway.url", "http://127.0.0.1:" + config.gatewayPort())
                    + "/api/v1");
            return 0;
        }
        out.println("Herald is degraded: not every component is up (logs in " + state.logs() + ").");
        return 1;
    }

    private static Optional<ProcessTree> component(StateDirectory state, String component, String marker) {
        OptionalLong pid = StateDirectory.readPid(state.pidFile(component));
        return pid.isEmpty()
                ? Optional.empty()
                : ProcessTree.of(pid.getAsLong()).filter(p -> p.runs(marker));
    }

    /** The live {@code up} process of this state directory, if any (a recycled pid does not count). */
    private static Optional<ProcessTree> supervisor(StateDirectory state) {
        OptionalLong pid = StateDirectory.readPid(state.supervisorPid());
        if (pid.isEmpty() || pid.getAsLong() == ProcessHandle.current().pid()) {
            return Optional.empty();
        }
        return ProcessTree.of(pid.getAsLong()).filter(p -> p.runs(SUPERVISOR_MARKER));
    }

    /** The ports of the running suite as it recorded them, else the ones the current environment selects. */
    private static Map<String, Integer> portsOf(StateDirectory state, LocalSuiteConfig config) throws IOException {
        Properties suite = suiteProperties(state);
        Map<String, Integer> ports = new LinkedHashMap<>();
        for (String key : suite.stringPropertyNames()) {
            if (key.startsWith("port.")) {
                ports.put(key.substring("port.".length()), Integer.parseInt(suite.getProperty(key)));
            }
        }
        return ports.isEmpty() ? config.listeningPorts() : ports;
    }

    private static Properties suiteProperties(StateDirectory state) throws IOException {
        Properties properties = new Properties();
        if (Files.exists(state.suiteProperties())) {
            try (Reader reader = Files.newBufferedReader(state.suiteProperties(), StandardCharsets.UTF_8)) {
                properties.load(reader);
            }
        }
        return properties;
    }
}
