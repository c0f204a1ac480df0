package dev.herald.local;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;

/**
 * {@code ./herald status}: each component of the suite, its pid and readiness; exit 0 when all are up, 1 when
 * degraded, {@link HeraldCli#NOT_RUNNING} when nothing runs.
 */
final class StatusCommand {
    private final Path root;
    private final Map<String, String> env;
    private final PrintStream out;

    StatusCommand(Path root, Map<String, String> env, PrintStream out) {
        this.root = root;
        this.env = env;
        this.out = out;
    }

    int run() throws IOException {
        LocalSuiteConfig config = LocalSuiteConfig.fromEnvironment(root, env);
        StateDirectory state = config.state();
        Properties suite = SuiteProperties.read(state);
        Map<String, Integer> ports = SuiteProperties.portsOf(state, config);
        Map<String, String> markers = StaleProcesses.markersOf(config);
        Optional<ProcessTree> supervisor = Supervisor.of(state);

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
}
