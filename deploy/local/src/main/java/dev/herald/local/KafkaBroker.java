package dev.herald.local;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * A real single-node Kafka broker (KRaft, broker and controller in one) run as a child JVM on the jars of
 * the Apache Kafka distribution, exactly as {@code kafka-server-start.sh} runs it. The jars are copied by
 * the {@code deploy/kafka-broker} module.
 */
public final class KafkaBroker implements AutoCloseable {
    static final int CLEANER_DEDUPE_BUFFER_BYTES = 8 * 1024 * 1024;
    private final Process process;
    private final String bootstrapServers;
    private final Path log;

    private KafkaBroker(Process process, String bootstrapServers, Path log) {
        this.process = process;
        this.bootstrapServers = bootstrapServers;
        this.log = log;
    }

    /** Where the broker jars are: {@code herald.kafka.libs}, else under the build root. */
    public static Path brokerLibs(Path projectRoot) {
        String configured = System.getProperty("herald.kafka.libs", System.getenv("HERALD_KAFKA_LIBS"));
        Path libs =
                configured != null ? Path.of(configured) : projectRoot.resolve("deploy/kafka-broker/target/kafka-libs");
        if (!Files.isDirectory(libs)) {
            throw new IllegalStateException(
                    "Kafka broker jars not found in " + libs + "; build with ./mvnw install first");
        }
        return libs;
    }

    public static KafkaBroker start(Path libs, Path workDirectory, int port, int controllerPort, Duration timeout)
            throws IOException, InterruptedException {
        return start(libs, workDirectory, port, controllerPort, timeout, workDirectory.resolve("kafka.log"));
    }

    /** Like {@link #start(Path, Path, int, int, Duration)}, with the broker's output appended to {@code log}. */
    public static KafkaBroker start(
            Path libs, Path workDirectory, int port, int controllerPort, Duration timeout, Path log)
            throws IOException, InterruptedException {
        Files.createDirectories(workDirectory);
        Path data = workDirectory.resolve("data");
        Path properties = workDirectory.resolve("server.properties");
        Files.writeString(
                properties,
                String.join(
                        "\n",
                        "process.roles=broker,controller",
                        "node.id=1",
                        "controller.quorum.voters=1@127.0.0.1:" + controllerPort,
                        "listeners=PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort,
                        "advertised.listeners=PLAINTEXT://127.0.0.1:" + port,
                        "controller.listener.names=CONTROLLER",
                        "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
                        "log.dirs=" + data.toAbsolutePath(),
                        "num.partitions=3",
                        "offsets.topic.replication.factor=1",
                        "offsets.topic.num.partitions=3",
                        "transaction.state.log.replication.factor=1",
                        "transaction.state.log.min.isr=1",
                        "group.initial.rebalance.delay.ms=0",
                        "auto.create.topics.enable=true",
                        // The log cleaner (compacting __consumer_offsets) allocates its dedupe buffer on the heap at
                        // start: 128 MiB by default, sized for millions of keys. A few thousand keys here fit in 8 MiB,
                        // and the broker's heap after GC falls from about 180 MiB to about 60.
                        "log.cleaner.dedupe.buffer.size=" + CLEANER_DEDUPE_BUFFER_BYTES,
                        ""),
                StandardCharsets.UTF_8);
        String classpath = libs.toAbsolutePath() + "/*";
        if (!Files.exists(data.resolve("meta.properties"))) {
            String clusterId = randomClusterId();
            List<String> formatCommand = JavaCommand.with("-cp", classpath, "kafka.tools.StorageTool");
            formatCommand.addAll(List.of(
                    "format",
                    // "=": a random id may start with "-", which would otherwise read as an option.
                    "--cluster-id=" + clusterId,
                    "-c",
                    properties.toString(),
                    "--ignore-formatted"));
            Process format = new ProcessBuilder(formatCommand)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start();
            if (!format.waitFor(60, TimeUnit.SECONDS) || format.exitValue() != 0) {
                format.destroyForcibly();
                throw new IOException("formatting Kafka storage failed; see " + log);
            }
        }
        // Starts small and grows on demand: an initial 128 MiB was committed whether the broker needed it or not.
        List<String> command = JavaCommand.with(
                "-Xms32m", "-Xmx512m", "-XX:+UseSerialGC", "-Dlog4j2.configurationFactory=", "-cp", classpath);
        command.addAll(List.of("kafka.Kafka", properties.toString()));
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        KafkaBroker broker = new KafkaBroker(process, "127.0.0.1:" + port, log);
        broker.awaitListening(port, timeout);
        return broker;
    }

    private void awaitListening(int port, Duration timeout) throws IOException, InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IOException("the Kafka broker exited with " + process.exitValue() + "; see " + log);
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
                return;
            } catch (IOException notYet) {
                // still starting
            }
            Thread.sleep(200);
        }
        close();
        throw new IOException("the Kafka broker did not start within " + timeout.toSeconds() + " s; see " + log);
    }

    private static String randomClusterId() {
        UUID uuid = UUID.randomUUID();
        java.nio.ByteBuffer buffer = java.nio.ByteBuffer.allocate(16);
        buffer.putLong(uuid.getMostSignificantBits()).putLong(uuid.getLeastSignificantBits());
        return java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(buffer.array());
    }

    /** Text in the broker's command line: its properties file, unique to the work directory. */
    public static String processMarker(Path workDirectory) {
        return workDirectory.resolve("server.properties").toString();
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    public long pid() {
        return process.pid();
    }

    public Path log() {
        return log;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** The broker's exit value once it exited, -1 while it runs. */
    public int exitValue() {
        return process.isAlive() ? -1 : process.exitValue();
    }

    /** SIGKILL, as a crash of its machine would end it: no controlled shutdown, unflushed log pages lost. */
    public void kill() throws InterruptedException {
        if (process.isAlive()) {
            new ProcessTree(process.toHandle()).kill();
            process.waitFor(5, TimeUnit.SECONDS);
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
