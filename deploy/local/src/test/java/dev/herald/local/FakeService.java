package dev.herald.local;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Stands in for a Quarkus service in the launcher's tests: listens on {@code QUARKUS_HTTP_HOST:QUARKUS_HTTP_PORT},
 * answers {@code /q/health/ready} with 200 (on {@code QUARKUS_MANAGEMENT_HOST:QUARKUS_MANAGEMENT_PORT} instead when
 * that is set, as the gateway does) and {@code /env} with the environment it was given (as
 * {@code NAME=value} lines, newlines escaped), so tests can check the launcher's environment contract.
 * Arguments: the module name (so the command line carries a marker), then optionally {@code crash} (exit 3 after
 * 300 ms, before ever answering) or {@code never-ready} (answer 503). A file named by {@code HERALD_FAKE_SETTINGS}
 * that says {@code broken} makes it exit 1 at start, as a service with a broken setting does.
 */
public final class FakeService {
    private FakeService() {}

    public static void main(String[] args) throws IOException {
        String behaviour = args.length > 1 ? args[1] : "ready";
        System.out.println("fake " + args[0] + " starting (" + behaviour + ")");
        String settings = System.getenv("HERALD_FAKE_SETTINGS");
        if (settings != null && Files.readString(Path.of(settings)).contains("broken")) {
            // As a Quarkus service with a setting it cannot use: it says which, and exits before listening.
            System.out.println("fake " + args[0] + ": Failed to start application: invalid value 'broken' for"
                    + " herald.fake.setting (from " + settings + ")");
            System.exit(1);
        }
        if (behaviour.equals("crash")) {
            sleep(300);
            System.out.println("fake " + args[0] + " crashes on purpose");
            System.exit(3);
        }
        int port = Integer.parseInt(System.getenv("QUARKUS_HTTP_PORT"));
        HttpServer server = HttpServer.create(new InetSocketAddress(System.getenv("QUARKUS_HTTP_HOST"), port), 50);
        // As Quarkus with its management interface on (the gateway): health answers there, not on the main port.
        String managementPort = System.getenv("QUARKUS_MANAGEMENT_PORT");
        HttpServer management = managementPort == null
                ? server
                : HttpServer.create(
                        new InetSocketAddress(
                                System.getenv("QUARKUS_MANAGEMENT_HOST"), Integer.parseInt(managementPort)),
                        50);
        management.createContext("/q/health/ready", exchange -> {
            byte[] body = "{\"status\":\"UP\"}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(behaviour.equals("never-ready") ? 503 : 200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.createContext("/env", exchange -> {
            Map<String, String> env = new TreeMap<>(System.getenv());
            byte[] body = env.entrySet().stream()
                    .filter(e -> e.getKey().startsWith("QUARKUS_")
                            || e.getKey().startsWith("HERALD_")
                            || e.getKey().startsWith("KAFKA_"))
                    .map(e -> e.getKey() + "=" + e.getValue().replace("\n", "\\n"))
                    .collect(Collectors.joining("\n"))
                    .getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        if (management != server) {
            management.start();
        }
        System.out.println("fake " + args[0] + " listening on " + port);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Runs {@link FakeService} for every module, except that some modules can be told to misbehave. */
    public record Command(Map<HeraldService, String> behaviours) implements ServiceCommand {
        public static Command allReady() {
            return new Command(Map.of());
        }

        @Override
        public List<String> commandLine(HeraldService service) {
            List<String> command = new ArrayList<>(List.of(
                    JavaCommand.launcher(),
                    "-Xmx32m",
                    "-XX:+UseSerialGC",
                    "-XX:TieredStopAtLevel=1",
                    "-cp",
                    testClasses(),
                    FakeService.class.getName(),
                    service.module()));
            command.add(behaviours.getOrDefault(service, "ready"));
            return command;
        }

        @Override
        public String processMarker(HeraldService service) {
            return FakeService.class.getName() + " " + service.module();
        }

        private static String testClasses() {
            try {
                return Path.of(FakeService.class
                                .getProtectionDomain()
                                .getCodeSource()
                                .getLocation()
                                .toURI())
                        .toString();
            } catch (URISyntaxException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
