package dev.herald.local;

import java.nio.file.Path;

/**
 * Runs a suite of fake services in its own JVM, so a test can SIGKILL that JVM and leave behind exactly what a
 * crashed {@code ./herald up} leaves: PostgreSQL, Kafka and services without their supervisor.
 * Arguments: project root, state dir, then the ports of the services (in {@link HeraldService} order),
 * PostgreSQL, Kafka and the Kafka controller.
 */
public final class SuiteInAnotherJvm {
    private SuiteInAnotherJvm() {}

    public static void main(String[] args) throws InterruptedException {
        LocalSuiteConfig.Builder builder = LocalSuiteConfig.builder(Path.of(args[0]))
                .stateDir(Path.of(args[1]))
                .serviceCommand(FakeService.Command.allReady())
                .progress(line -> System.out.println("suite: " + line));
        int next = 2;
        for (HeraldService service : HeraldService.values()) {
            builder.port(service, Integer.parseInt(args[next++]));
        }
        builder.postgresPort(Integer.parseInt(args[next++]))
                .kafkaPorts(Integer.parseInt(args[next++]), Integer.parseInt(args[next]));
        LocalSuite.start(builder.build());
        System.out.println("READY");
        Thread.currentThread().join();
    }

    static String[] arguments(LocalSuiteConfig config) {
        String[] args = new String[2 + HeraldService.values().length + 3];
        args[0] = config.projectRoot().toString();
        args[1] = config.stateDir().toString();
        int next = 2;
        for (HeraldService service : HeraldService.values()) {
            args[next++] = Integer.toString(config.port(service));
        }
        args[next++] = Integer.toString(config.postgresPort());
        args[next++] = Integer.toString(config.kafkaPort());
        args[next] = Integer.toString(config.kafkaControllerPort());
        return args;
    }
}
