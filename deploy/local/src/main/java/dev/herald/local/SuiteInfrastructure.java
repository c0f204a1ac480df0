package dev.herald.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The suite's PostgreSQL and Kafka: embedded ones started (and crashed and restarted on demand) with their pid
 * files, or existing ones only checked and used. Part of {@link LocalSuite}.
 */
final class SuiteInfrastructure {
    static final Duration KAFKA_START_TIMEOUT = Duration.ofSeconds(90);

    private final LocalSuiteConfig config;
    private final StateDirectory state;

    private PostgresServer postgres;
    private KafkaBroker kafka;
    private String bootstrapServers;

    SuiteInfrastructure(LocalSuiteConfig config, StateDirectory state) {
        this.config = config;
        this.state = state;
    }

    PostgresServer postgres() {
        return postgres;
    }

    String bootstrapServers() {
        return bootstrapServers;
    }

    /** PostgreSQL and Kafka start at the same time; both take a few seconds. */
    void start() {
        CompletableFuture<Void> kafkaStarted = new CompletableFuture<>();
        Thread kafkaStarter = new Thread(
                () -> {
                    try {
                        startKafka();
                        kafkaStarted.complete(null);
                    } catch (Throwable e) {
                        kafkaStarted.completeExceptionally(e);
                    }
                },
                "herald-kafka-start");
        kafkaStarter.start();
        LocalSuiteStartException failure = null;
        try {
            startPostgres();
        } catch (LocalSuiteStartException e) {
            failure = e;
        }
        try {
            kafkaStarted.join();
        } catch (CompletionException e) {
            LocalSuiteStartException kafkaFailure = e.getCause() instanceof LocalSuiteStartException started
                    ? started
                    : new LocalSuiteStartException(
                            "kafka", "did not start: " + e.getCause(), state.log("kafka"), e.getCause());
            if (failure == null) {
                failure = kafkaFailure;
            } else {
                failure.addSuppressed(kafkaFailure);
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    void startPostgres() {
        Path log = state.log("postgres");
        try {
            if (config.embeddedPostgres()) {
                progress("starting PostgreSQL on 127.0.0.1:" + config.postgresPort() + " (data in "
                        + state.postgresData() + ")");
                PostgresServer started = PostgresServer.startEmbedded(
                        config.postgresPort(), state.postgresData(), log, config.durablePostgres());
                synchronized (this) {
                    postgres = started;
                }
                OptionalLong postmaster = started.postmasterPid();
                if (postmaster.isPresent()) {
                    StateDirectory.writePid(state.pidFile("postgres"), postmaster.getAsLong());
                }
            } else {
                postgres = PostgresServer.existing(config.existingDatabaseUrl());
                log = null;
                progress("using the existing PostgreSQL at " + postgres.host() + ":" + postgres.port());
            }
            for (HeraldService service : HeraldService.values()) {
                if (service.database() != null) {
                    postgres.ensureDatabase(service.database());
                }
            }
        } catch (IOException | SQLException | RuntimeException e) {
            String problem = config.embeddedPostgres() ? "did not start: " : "(existing server) is not usable: ";
            throw new LocalSuiteStartException("postgres", problem + e.getMessage(), log, e);
        }
    }

    void startKafka() {
        if (!config.embeddedKafka()) {
            bootstrapServers = config.existingKafka();
            progress("using the existing Kafka at " + bootstrapServers);
            return;
        }
        Path log = state.log("kafka");
        try {
            progress("starting Kafka on 127.0.0.1:" + config.kafkaPort() + " (data in " + state.kafkaWork() + ")");
            KafkaBroker started = KafkaBroker.start(
                    KafkaBroker.brokerLibs(config.projectRoot()),
                    state.kafkaWork(),
                    config.kafkaPort(),
                    config.kafkaControllerPort(),
                    KAFKA_START_TIMEOUT,
                    log);
            synchronized (this) {
                kafka = started;
            }
            StateDirectory.writePid(state.pidFile("kafka"), started.pid());
            bootstrapServers = started.bootstrapServers();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LocalSuiteStartException("kafka", "start was interrupted", log, e);
        } catch (IOException | RuntimeException e) {
            throw new LocalSuiteStartException("kafka", "did not start: " + e.getMessage(), log, e);
        }
    }

    /** SIGKILL to the embedded broker, as a crash would. */
    void killBroker() {
        KafkaBroker broker = requireEmbedded(kafka, "Kafka");
        try {
            progress("killing Kafka");
            broker.kill();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while killing Kafka", e);
        }
    }

    void restartBroker() {
        requireEmbedded(kafka, "Kafka");
        startKafka();
    }

    /** SIGKILL to the embedded PostgreSQL server (postmaster and backends), as a crash would. */
    void killDatabase() {
        PostgresServer database = requireEmbedded(postgres, "PostgreSQL");
        try {
            progress("killing PostgreSQL");
            database.kill();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while killing PostgreSQL", e);
        }
    }

    void restartDatabase() {
        requireEmbedded(postgres, "PostgreSQL");
        startPostgres();
    }

    /**
     * The embedded servers as the {@link CrashSupervisor} watches them: a restart clears what the crash left (zonky's
     * handle on the data directory, a dead broker) and starts the server on the same data and port. Existing servers
     * are not ours to restart.
     */
    List<CrashSupervisor.Component> components() {
        List<CrashSupervisor.Component> components = new ArrayList<>();
        if (config.embeddedPostgres()) {
            components.add(new CrashSupervisor.Component(
                    "postgres",
                    true,
                    () -> postgresServer().isRunning(),
                    // pg_ctl starts the postmaster, so it is not our child and its exit status cannot be read.
                    () -> "unknown: not a child",
                    () -> {
                        postgresServer().kill();
                        startPostgres();
                    },
                    state.log("postgres")));
        }
        if (config.embeddedKafka()) {
            components.add(new CrashSupervisor.Component(
                    "kafka",
                    true,
                    () -> broker().isAlive(),
                    () -> RestartPolicy.describeExit(broker().exitValue()),
                    () -> {
                        broker().kill();
                        startKafka();
                    },
                    state.log("kafka")));
        }
        return components;
    }

    private synchronized PostgresServer postgresServer() {
        return postgres;
    }

    private synchronized KafkaBroker broker() {
        return kafka;
    }

    private <T> T requireEmbedded(T component, String name) {
        if (component == null || (component instanceof PostgresServer server && !server.isEmbedded())) {
            throw new IllegalStateException(name + " is not embedded in this suite");
        }
        return component;
    }

    /** Stops Kafka, then PostgreSQL, and removes their pid files; keeps going past failures. */
    synchronized void stop(List<Exception> failures) {
        if (kafka != null) {
            progress("stopping Kafka");
            kafka.close();
            kafka = null;
            deletePidFile("kafka", failures);
        }
        if (postgres != null) {
            if (postgres.isEmbedded()) {
                progress("stopping PostgreSQL");
            }
            try {
                postgres.close();
            } catch (IOException | RuntimeException e) {
                failures.add(e);
            }
            postgres = null;
            deletePidFile("postgres", failures);
        }
    }

    private void deletePidFile(String component, List<Exception> failures) {
        try {
            Files.deleteIfExists(state.pidFile(component));
        } catch (IOException e) {
            failures.add(e);
        }
    }

    private void progress(String message) {
        config.progress().accept(message);
    }
}
