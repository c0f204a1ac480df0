package dev.herald.local;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Runs each service from its image with podman, as the Helm chart runs it in a pod ({@code ./herald up --containers}):
 * the chart's container security context (read-only root filesystem, user 185, every capability dropped, no privilege
 * escalation), a writable tmpfs only at {@code /tmp}, where the chart mounts its {@code emptyDir}, values-minimal's
 * memory and CPU limits, and the chart's stop grace. Host networking, so the services reach the embedded PostgreSQL
 * and Kafka, and each other, on 127.0.0.1 as the process suite does; nothing listens on any other address.
 *
 * <p>The image is the one this checkout built ({@code <module>/target/image.id}, written by
 * {@code deploy/images/service-image.sh} when the {@code local-images} profile built it with podman), so two worktrees
 * never run each other's builds under a shared tag. {@code podman run} stays in the foreground: its output is the
 * service's log, and a SIGTERM to it reaches the service (podman proxies signals), whose exit code it returns.
 */
public record PodmanCommand(Path projectRoot) implements ServiceCommand {
    /** The chart's {@code terminationGracePeriodSeconds}: podman SIGKILLs a container that takes longer to stop. */
    public static final int TERMINATION_GRACE_SECONDS = 30;

    /**
     * How long the chart's startupProbe lets a pod start ({@code failureThreshold} x {@code periodSeconds}) before the
     * kubelet restarts it: what a test that starts the suite from the images may wait for it.
     */
    public static final int STARTUP_SECONDS = 300;

    /**
     * What the chart's ConfigMap sets besides the variables the launcher gives every service: readiness goes down
     * {@code shutdownDelay} before the server stops, and logs are JSON lines (values.yaml's defaults).
     */
    public static final Map<String, String> CHART_ENVIRONMENT =
            Map.of("QUARKUS_SHUTDOWN_DELAY", "5s", "QUARKUS_LOG_CONSOLE_JSON_ENABLED", "true");

    public PodmanCommand {
        projectRoot = projectRoot.toAbsolutePath().normalize();
    }

    /** Where the local-images build recorded the image id of a module (a service or the provider fakes). */
    public Path imageIdFile(String module) {
        return projectRoot.resolve(module).resolve("target/image.id");
    }

    /** The container's name: one per service and suite, since the port is the suite's own. */
    static String containerName(HeraldService service, Map<String, String> environment) {
        return "herald-" + service.module() + "-" + environment.getOrDefault("QUARKUS_HTTP_PORT", "default");
    }

    @Override
    public List<String> commandLine(HeraldService service) {
        return commandLine(service, Map.of());
    }

    @Override
    public List<String> commandLine(HeraldService service, Map<String, String> environment) {
        List<String> command = new ArrayList<>(List.of(
                "podman",
                // Debian's crun cannot create containers under this kernel's hybrid cgroups; runc can.
                "--runtime",
                "runc",
                "run",
                "--rm",
                // A container left by a podman client that was SIGKILLed is replaced, not a name conflict.
                "--replace",
                "--name=" + containerName(service, environment),
                "--pull=never",
                "--network=host",
                "--read-only",
                // podman would mount tmpfs on /run, /tmp and /var/tmp of a read-only container; the chart has one.
                "--read-only-tmpfs=false",
                "--tmpfs=/tmp:rw,size=256m,mode=1777",
                "--user=185:185",
                "--cap-drop=ALL",
                "--security-opt=no-new-privileges",
                "--memory=384m",
                "--cpus=1",
                "--stop-timeout=" + TERMINATION_GRACE_SECONDS));
        CHART_ENVIRONMENT.forEach((name, value) -> command.add("--env=" + name + "=" + value));
        // Names only: podman copies each value from its own environment, so no secret shows in a command line.
        environment.keySet().stream()
                .filter(name -> !CHART_ENVIRONMENT.containsKey(name))
                .sorted()
                .forEach(name -> command.add("--env=" + name));
        command.add(imageId(service).orElse("missing-image"));
        return List.copyOf(command);
    }

    /** The container sees only its image and its /tmp, as a pod does: its keys come as values (the chart's way). */
    @Override
    public boolean readsLauncherFiles() {
        return false;
    }

    @Override
    public String processMarker(HeraldService service) {
        return "--name=herald-" + service.module() + "-";
    }

    @Override
    public Optional<String> unavailableReason(HeraldService service) {
        return imageId(service).isPresent()
                ? Optional.empty()
                : Optional.of(imageIdFile(service.module()) + " does not exist; build the images with ./mvnw"
                        + " -DskipTests -Dherald.images package on a machine with podman and mmdebstrap"
                        + " (docs/operations.md, \"Images\")");
    }

    private Optional<String> imageId(HeraldService service) {
        Path file = imageIdFile(service.module());
        try {
            return Files.isRegularFile(file)
                    ? Optional.of(Files.readString(file, StandardCharsets.UTF_8).strip())
                            .filter(id -> !id.isEmpty())
                    : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
