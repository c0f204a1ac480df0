package dev.herald.local;

import java.nio.file.Files;
import java.nio.file.Path;
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

    /** Why the service cannot be started at all (e.g. it was never built), checked before anything starts. */
    default Optional<String> unavailableReason(HeraldService service) {
        return Optional.empty();
    }

    /** {@code java -Xms64m -Xmx320m -XX:+UseSerialGC -jar <module>/target/quarkus-app/quarkus-run.jar}. */
    static ServiceCommand quarkusJar(Path projectRoot) {
        return new QuarkusJar(projectRoot.toAbsolutePath().normalize());
    }

    /** Runs a module's Quarkus fast-jar on the JVM that runs the launcher. */
    record QuarkusJar(Path projectRoot) implements ServiceCommand {
        public Path jar(HeraldService service) {
            return projectRoot.resolve(service.module()).resolve("target/quarkus-app/quarkus-run.jar");
        }

        @Override
        public List<String> commandLine(HeraldService service) {
            return JavaCommand.with(
                    "-Xms64m",
                    "-Xmx320m",
                    "-XX:+UseSerialGC",
                    "-jar",
                    jar(service).toString());
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
