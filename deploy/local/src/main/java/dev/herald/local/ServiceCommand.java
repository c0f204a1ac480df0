package dev.herald.local;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How a service is run as a child process. The real suite runs each module's {@code quarkus-run.jar};
 * tests inject a command that runs a tiny fake service through the same supervision code.
 */
public interface ServiceCommand {

    /** The command line that runs the service (environment and output are set by the supervisor). */
    List<String> commandLine(HeraldService service);

    /**
     * The command line, knowing the environment the supervisor will give the process: a container runtime must name
     * the variables to pass into the container ({@link PodmanCommand}); a plain process inherits them all.
     */
    default List<String> commandLine(HeraldService service, Map<String, String> environment) {
        return commandLine(service);
    }

    /**
     * Text that the running process's command line contains. A pid file from an earlier run is only acted on
     * when the process it names still has this in its command line, so a recycled pid never gets an
     * unrelated process killed.
     */
    String processMarker(HeraldService service);

    /**
     * Whether the service can read the launcher's files (the state directory's key files, which a running suite's
     * services read again when a key rotates). A container cannot: {@link ServiceEnvironment} gives it its keys as
     * values instead, in the variables the Helm chart fills from its Secrets.
     */
    default boolean readsLauncherFiles() {
        return true;
    }

    /** Where the process runs; empty: the launcher's own working directory. */
    default Optional<Path> workingDirectory(HeraldService service) {
        return Optional.empty();
    }

    /** Why the service cannot be started at all (e.g. it was never built), checked before anything starts. */
    default Optional<String> unavailableReason(HeraldService service) {
        return Optional.empty();
    }

    /**
     * {@code java <ServiceJvmOptions> -Dherald.service.jar=<absolute jar> -jar quarkus-run.jar} in the module's
     * {@code target/quarkus-app}.
     */
    static ServiceCommand quarkusJar(Path projectRoot) {
        return quarkusJar(projectRoot, List.of());
    }

    /** The same with {@code extraOptions} (the operator's {@code HERALD_SERVICE_JVM_OPTIONS}) last. */
    static ServiceCommand quarkusJar(Path projectRoot, List<String> extraOptions) {
        return new QuarkusJar(projectRoot.toAbsolutePath().normalize(), List.copyOf(extraOptions));
    }

    /**
     * Runs a module's Quarkus fast-jar on the JVM that runs the launcher, from its {@code quarkus-app} directory and by
     * the jar's relative name: on JDK 17 an AppCDS archive is only used with the class path it was dumped with, which
     * Quarkus's build writes as {@code quarkus-run.jar:lib/...} relative to that directory. The absolute path is in the
     * command line still, as {@code -Dherald.service.jar}, so that a pid file is only acted on for this very jar.
     */
    record QuarkusJar(Path projectRoot, List<String> extraOptions) implements ServiceCommand {
        public Path jar(HeraldService service) {
            return projectRoot.resolve(service.module()).resolve("target/quarkus-app/quarkus-run.jar");
        }

        @Override
        public List<String> commandLine(HeraldService service) {
            Path jar = jar(service);
            List<String> options = new ArrayList<>(ServiceJvmOptions.of(service, jar.getParent(), extraOptions));
            options.add("-Dherald.service.jar=" + jar);
            options.add("-jar");
            options.add(jar.getFileName().toString());
            return JavaCommand.with(options.toArray(String[]::new));
        }

        @Override
        public Optional<Path> workingDirectory(HeraldService service) {
            return Optional.of(jar(service).getParent());
        }

        @Override
        public String processMarker(HeraldService service) {
            return jar(service).toString();
        }

        @Override
        public Optional<String> unavailableReason(HeraldService service) {
            Path jar = jar(service);
            return Files.isRegularFile(jar)
                    ? Optional.empty()
                    : Optional.of(jar + " does not exist; build it with ./mvnw -DskipTests install");
        }
    }
}
