package dev.herald.local;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;

/**
 * {@code ./herald status}: each component of the suite, its pid, readiness and uptime, and what the supervisor
 * recorded ({@link SupervisionRecord}): restarts, how its last run ended, a crash loop with the end of its log. Exit 0
 * when all are up, 1 when degraded, {@link HeraldCli#NOT_RUNNING} when nothing runs.
 */
final class StatusCommand {
    private static final String FORMAT = "%-18s %-8s %-30s %-11s %-9s %-22s %s%n";
    private static final int LOG_TAIL_LINES = 20;

    private final LocalSuiteConfig config;
    private final PrintStream out;

    /** @param config the environment's configuration: its state directory, and how to recognise its processes */
    StatusCommand(LocalSuiteConfig config, PrintStream out) {
        this.config = config;
        this.out = out;
    }

    int run() throws IOException {
        StateDirectory state = config.state();
        Properties suite = SuiteProperties.read(state);
        Map<String, Integer> ports = SuiteProperties.portsOf(state, config);
        Map<String, String> markers = StaleProcesses.markersOf(config);
        Map<String, SupervisionRecord.Row> supervision = SupervisionRecord.read(state);
        Optional<ProcessTree> supervisor = Supervisor.of(state);

        List<String[]> rows = new ArrayList<>();
        int alive = 0;
        boolean allUp = supervisor.isPresent();
        rows.add(new String[] {
            "supervisor",
            supervisor.map(p -> Long.toString(p.pid())).orElse("-"),
            supervisor.isPresent() ? (Files.exists(state.ready()) ? "running" : "starting") : "not running",
            uptime(supervisor),
            "",
            "",
            ""
        });
        if (supervisor.isPresent()) {
            alive++;
        }
        for (String component : List.of("postgres", "kafka")) {
            if ("existing".equals(suite.getProperty(component))) {
                rows.add(new String[] {component, "-", "existing server (not managed)", "", "", "", ""});
                continue;
            }
            Optional<ProcessTree> process = component(state, component, markers.get(component));
            alive += process.isPresent() ? 1 : 0;
            allUp &= process.isPresent();
            rows.add(row(
                    component,
                    process,
                    process.isPresent() ? "running" : "not running",
                    ports.containsKey(component) ? "127.0.0.1:" + ports.get(component) : "",
                    supervision));
        }
        ReadinessProbe probe = new ReadinessProbe();
        Map<HeraldService, CompletableFuture<ReadinessProbe.Result>> readiness = new LinkedHashMap<>();
        Map<HeraldService, Optional<ProcessTree>> processes = new LinkedHashMap<>();
        for (HeraldService service : HeraldService.values()) {
            Optional<ProcessTree> process = component(state, service.module(), markers.get(service.module()));
            processes.put(service, process);
            if (process.isPresent()) {
                readiness.put(service, probe.probe(managementPort(ports, service)));
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
            rows.add(row(service.module(), process, health, "http://127.0.0.1:" + port, supervision));
        }
        if (alive == 0) {
            out.println("Herald is not running.");
            return HeraldCli.NOT_RUNNING;
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
            rows.add(row(
                    ProviderFakes.MODULE,
                    process,
                    result == null ? "not running" : result.ready() ? "ready" : "not ready (" + result + ")",
                    fakesUrl,
                    supervision));
        }
        out.printf(FORMAT, "COMPONENT", "PID", "STATE", "UPTIME", "RESTARTS", "LAST EXIT", "ADDRESS");
        rows.forEach(row -> out.printf(FORMAT, (Object[]) row));
        for (Map.Entry<String, SupervisionRecord.Row> entry : supervision.entrySet()) {
            if (entry.getValue().state() == CrashSupervisor.State.CRASH_LOOP) {
                allUp = false;
                printCrashLoop(state, entry.getKey(), entry.getValue());
            }
        }
        if (allUp) {
            out.println("Herald is up: " + suite.getProperty("gateway.url", "http://127.0.0.1:" + config.gatewayPort())
                    + "/api/v1");
            return 0;
        }
        out.println("Herald is degraded: not every component is up (logs in " + state.logs() + ").");
        return 1;
    }

    /** Where the running suite asks a service's readiness, as it recorded its ports. */
    private int managementPort(Map<String, Integer> ports, HeraldService service) {
        return service == HeraldService.API_GATEWAY
                ? ports.getOrDefault(LocalSuiteConfig.GATEWAY_MANAGEMENT, config.managementPort(service))
                : ports.getOrDefault(service.module(), config.port(service));
    }

    /**
     * A component's row: while the supervisor waits to restart it or has given up on it, that is its state rather
     * than "not running".
     */
    private static String[] row(
            String component,
            Optional<ProcessTree> process,
            String health,
            String address,
            Map<String, SupervisionRecord.Row> supervision) {
        SupervisionRecord.Row supervised = supervision.get(component);
        String state = health;
        if (supervised != null && process.isEmpty()) {
            state = switch (supervised.state()) {
                case RESTARTING -> "crashed, restarting";
                case CRASH_LOOP -> "crash loop: left down";
                case HELD -> "stopped on request";
                case RUNNING -> health;
            };
        }
        return new String[] {
            component,
            process.map(p -> Long.toString(p.pid())).orElse("-"),
            state,
            uptime(process),
            supervised == null ? "" : Integer.toString(supervised.restarts()),
            supervised == null || supervised.lastExit() == null ? "" : supervised.lastExit(),
            address
        };
    }

    private static String uptime(Optional<ProcessTree> process) {
        return process.flatMap(p -> p.root().info().startInstant())
                .map(started -> CrashSupervisor.uptime(Duration.between(started, Instant.now())))
                .orElse("");
    }

    private void printCrashLoop(StateDirectory state, String component, SupervisionRecord.Row row) throws IOException {
        out.println();
        out.println(component + " was " + row.message() + ". Its last exit: " + row.lastExit() + ".");
        Path log = state.log(component);
        if (Files.exists(log)) {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            out.println("Last lines of " + log + ":");
            lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size())
                    .forEach(line -> out.println("  " + line));
        }
        out.println();
    }

    private static Optional<ProcessTree> component(StateDirectory state, String component, String marker) {
        OptionalLong pid = StateDirectory.readPid(state.pidFile(component));
        return pid.isEmpty()
                ? Optional.empty()
                : ProcessTree.of(pid.getAsLong()).filter(p -> p.runs(marker));
    }
}
