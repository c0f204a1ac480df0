package dev.herald.local;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code ./herald up | down | status | listen}: runs the suite in the foreground as a supervisor process, stops a
 * running one, or reports on it; {@code listen} forwards webhooks to a local URL ({@link ListenCommand}). {@code --detach} is implemented by the {@code herald} script, which starts {@code up}
 * in the background and waits for the {@code ready} marker. {@link DownCommand} and {@link StatusCommand} do the
 * other two.
 */
public final class HeraldCli {
    static final int NOT_RUNNING = 3;

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
                case "down" -> new DownCommand(root, env, out, err).run();
                case "status" -> new StatusCommand(LocalSuiteConfig.fromEnvironment(root, env), out).run();
                case "listen" ->
                    new ListenCommand(ListenOptions.parse(options, env, localCredentials()), out, err).run();
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

                  up [--detach] [--fake-providers] [--containers]
                                  build what is stale, start PostgreSQL, Kafka and every service, print the base URL,
                                  demo credentials and a one-time dashboard sign-in link; stays in the foreground
                                  (Ctrl-C stops everything) unless --detach, which returns once everything is ready.
                                  --fake-providers also starts provider-fakes and points live mode's OAuth and
                                  publishing at it. --containers runs each service from its image with podman, with
                                  the Helm chart's security context (docs/local-runtime.md)
                  down            stop what 'up' started
                  status          show each component, its pid, readiness, uptime, restarts and last exit
                                  (exit 0 all up, 1 degraded or a crash loop, 3 not running)
                  listen --forward-to <url> [--mode test|live] [--events a,b] [--url <herald url>] [--key <key>]
                                  register a temporary pull webhook endpoint, forward each event to <url> signed
                                  with its secret, delete the endpoint on Ctrl-C (docs/webhooks.md); the local
                                  suite's URL and demo key unless --url and --key (or HERALD_API_KEY) say otherwise

                State, logs and pids live in .herald/ (HERALD_STATE_DIR). Settings: HERALD_PORT, HERALD_POSTGRES_PORT,
                HERALD_DATABASE_URL, KAFKA_BOOTSTRAP_SERVERS, HERALD_DEMO_TEST_KEY, HERALD_DEMO_LIVE_KEY,
                HERALD_ADMIN_TOKEN, HERALD_FAKE_PROVIDERS_PORT; see docs/local-runtime.md.""");
    }

    /** What {@code up} wrote to {@code .herald/credentials} ({@code NAME=value} lines); empty when it never ran. */
    private Map<String, String> localCredentials() throws IOException {
        Path file = LocalSuiteConfig.fromEnvironment(root, env).state().credentials();
        Map<String, String> credentials = new java.util.HashMap<>();
        if (Files.exists(file)) {
            for (String line : Files.readAllLines(file)) {
                int equals = line.indexOf('=');
                if (equals > 0) {
                    credentials.put(line.substring(0, equals), line.substring(equals + 1));
                }
            }
        }
        return credentials;
    }

    // ---- up -------------------------------------------------------------------------------------------------

    private int up(List<String> options) throws IOException, InterruptedException {
        Set<String> known = Set.of("--background", "--fake-providers", "--containers");
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
        // In the background the suite's own logs/herald.log is where its progress goes (this process's output is
        // appended to the same file, so printing it too would show every line twice).
        LocalSuiteConfig.Builder builder = LocalSuiteConfig.fromEnvironment(root, env).toBuilder();
        if (options.contains("--containers")) {
            // Each service from its image, as the chart runs it; podman's own stop grace comes first.
            builder.serviceCommand(new PodmanCommand(root))
                    .stopGracePeriod(Duration.ofSeconds(PodmanCommand.TERMINATION_GRACE_SECONDS + 5));
        }
        LocalSuiteConfig config = builder.providerFakes(options.contains("--fake-providers"))
                .progress(background ? line -> {} : line -> out.println("  " + line))
                .build();
        StateDirectory state = config.state();
        Optional<ProcessTree> running = Supervisor.of(state);
        if (running.isPresent()) {
            err.println("Herald is already running (pid " + running.get().pid() + "); stop it with ./herald down");
            return 1;
        }
        state.create();
        Files.deleteIfExists(state.ready());
        if (!background) {
            // A new run's story (a detached run's is begun by the script, which sends its output there too).
            Files.deleteIfExists(state.log("herald"));
        }
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
            Supervisor.removeFiles(state);
            err.println("Herald did not start: " + e.getMessage());
            return 1;
        }
        SuiteCredentials credentials = SuiteCredentials.of(suite);
        StateDirectory.writeAtomically(state.credentials(), credentials.fileText(), true);
        StateDirectory.writeAtomically(state.ready(), pid + "\n", false);
        out.println();
        out.println("Herald is up (" + Duration.between(started, Instant.now()).toSeconds() + " s).");
        credentials.print(out, state.credentials(), background);
        out.println("  Logs           " + state.logs() + "/<service>.log");
        if (!background) {
            out.println("Press Ctrl-C to stop (or run ./herald down in another terminal).");
        }
        awaitShutdown();
        return 0;
    }

    /**
     * Blocks until the JVM exits (SIGTERM/SIGINT). Meanwhile the suite's supervisor restarts what crashes and reports
     * it through the progress lines (and logs/herald.log).
     */
    private static void awaitShutdown() throws InterruptedException {
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
                Supervisor.removeFiles(state);
            } catch (IOException e) {
                err.println("could not remove " + state.supervisorPid() + ": " + e.getMessage());
            }
        }
    }
}
