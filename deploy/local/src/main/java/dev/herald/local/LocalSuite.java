package dev.herald.local;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The whole Herald suite on one machine: PostgreSQL and Kafka (embedded unless existing ones are configured)
 * and every service as a child process. {@code ./herald up} runs one; system tests start one with free ports and
 * a temporary state directory and talk HTTP to {@link #baseUrl()}.
 *
 * <p>Starting either succeeds with every service answering its readiness check, or fails with a
 * {@link LocalSuiteStartException} naming the component and its log after everything already started has been
 * stopped again.
 */
public final class LocalSuite implements AutoCloseable {
    private static final Duration POLL_INTERVAL = Duration.ofMillis(250);
    private static final Duration KAFKA_START_TIMEOUT = Duration.ofSeconds(90);

    private final LocalSuiteConfig config;
    private final StateDirectory state;
    private final ReadinessProbe probe = new ReadinessProbe();
    private final Map<HeraldService, ServiceProcess> services = new EnumMap<>(HeraldService.class);
    /** The provider fakes' process, when the configuration asks for them. */
    private ServiceProcess providerFakes;

    private final CountDownLatch startupFinished = new CountDownLatch(1);
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile boolean closing;
    private volatile Thread startupThread;

    private FileChannel lockChannel;
    private FileLock lock;
    private PostgresServer postgres;
    private KafkaBroker kafka;
    private String bootstrapServers;
    private LocalSecrets secrets;

    private LocalSuite(LocalSuiteConfig config) {
        this.config = config;
        this.state = config.state();
    }

    /** Starts everything and returns once every service is ready. */
    public static LocalSuite start(LocalSuiteConfig config) {
        LocalSuite suite = create(config);
        suite.startAll();
        return suite;
    }

    /**
     * A suite that has not started yet, for callers that must be able to {@link #close()} it from another thread
     * (a shutdown hook) while it is still starting.
     */
    public static LocalSuite create(LocalSuiteConfig config) {
        return new LocalSuite(config);
    }

    public void startAll() {
        synchronized (this) {
            if (startupThread != null) {
                throw new IllegalStateException("this suite was started already; create a new one");
            }
            startupThread = Thread.currentThread();
        }
        try {
            state.create();
            lockState();
            List<String> leftovers = new StaleProcesses(
                            state, StaleProcesses.markersOf(config), config.stopGracePeriod(), this::progress)
                    .reap();
            if (!leftovers.isEmpty()) {
                progress("stopped leftovers of an earlier run: " + String.join(", ", leftovers));
            }
            requireFreePorts();
            requireRunnableServices();
            secrets = LocalSecrets.loadOrGenerate(state.secrets()).withOverrides(config);
            startInfrastructure();
            writeSuiteProperties();
            startServices();
            progress("all " + services.size() + " services are ready"
                    + (providerFakes != null ? ", and the provider fakes at " + config.providerFakesUrl() : ""));
        } catch (LocalSuiteStartException e) {
            throw stopAfterFailure(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw stopAfterFailure(new LocalSuiteStartException("suite", "start was interrupted", null, e));
        } catch (IOException | RuntimeException e) {
            throw stopAfterFailure(
                    new LocalSuiteStartException("suite", "could not start: " + e.getMessage(), null, e));
        } finally {
            startupFinished.countDown();
        }
    }

    // ---- what callers use -------------------------------------------------------------------------------------

    /** {@code http://127.0.0.1:<gateway port>/api/v1}. */
    public String baseUrl() {
        return gatewayUrl() + "/api/v1";
    }

    /** {@code http://127.0.0.1:<gateway port>}, for {@code /admin/v1}, {@code /oauth} and {@code /connect}. */
    public String gatewayUrl() {
        return "http://127.0.0.1:" + config.gatewayPort();
    }

    public String demoTestKey() {
        return secrets.demoTestKey();
    }

    public String demoLiveKey() {
        return secrets.demoLiveKey();
    }

    public String adminToken() {
        return secrets.adminToken();
    }

    /** The internal JWT keys and cursor secret too, for tests that mint internal tokens. */
    public LocalSecrets secrets() {
        return secrets;
    }

    /** Service module name (e.g. {@code posts-service}) to its port, the gateway included. */
    public Map<String, Integer> servicePorts() {
        Map<String, Integer> ports = new LinkedHashMap<>();
        for (HeraldService service : HeraldService.values()) {
            ports.put(service.module(), config.port(service));
        }
        return ports;
    }

    /** {@code http://127.0.0.1:<port>} of the provider fakes and their {@code /_fakes} control API. */
    public String providerFakesUrl() {
        return config.providerFakesUrl();
    }

    public PostgresServer postgres() {
        return postgres;
    }

    public String kafkaBootstrapServers() {
        return bootstrapServers;
    }

    public LocalSuiteConfig config() {
        return config;
    }

    public Path logFile(String module) {
        return state.log(
                ProviderFakes.MODULE.equals(module)
                        ? module
                        : HeraldService.ofModule(module).module());
    }

    public boolean isRunning(String module) {
        ServiceProcess process = service(module);
        return process != null && process.isAlive();
    }

    /** Stops one service gracefully (SIGTERM, SIGKILL after the grace period). */
    public void stop(String module) {
        ServiceProcess process = requireService(module);
        try {
            progress("stopping " + module);
            process.stop(config.stopGracePeriod());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while stopping " + module, e);
        } catch (IOException e) {
            throw new IllegalStateException("could not remove the pid file of " + module, e);
        }
    }

    /** Kills one service with SIGKILL, as a crash would: no graceful shutdown, pid file left behind. */
    public void kill(String module) {
        try {
            progress("killing " + module);
            requireService(module).kill();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while killing " + module, e);
        }
    }

    /**
     * Kills the embedded Kafka broker with SIGKILL, as a crash would. Services keep running and retry; {@link
     * #restartBroker()} brings it back on the same data and port.
     */
    public void killBroker() {
        KafkaBroker broker = requireEmbedded(kafka, "Kafka");
        try {
            progress("killing Kafka");
            broker.kill();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while killing Kafka", e);
        }
    }

    /** Starts the embedded Kafka broker again (after {@link #killBroker()}) on its data and port. */
    public void restartBroker() {
        requireEmbedded(kafka, "Kafka");
        startKafka();
    }

    /**
     * Kills the embedded PostgreSQL server (postmaster and backends) with SIGKILL, as a crash would. Services keep
     * running; their connections fail until {@link #restartDatabase()}.
     */
    public void killDatabase() {
        PostgresServer database = requireEmbedded(postgres, "PostgreSQL");
        try {
            progress("killing PostgreSQL");
            database.kill();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while killing PostgreSQL", e);
        }
    }

    /** Starts the embedded PostgreSQL server again (after {@link #killDatabase()}); it recovers from its WAL. */
    public void restartDatabase() {
        requireEmbedded(postgres, "PostgreSQL");
        startPostgres();
    }

    private <T> T requireEmbedded(T component, String name) {
        if (component == null || (component instanceof PostgresServer server && !server.isEmbedded())) {
            throw new IllegalStateException(name + " is not embedded in this suite");
        }
        return component;
    }

    /** Starts a stopped (or killed) service again and waits until it is ready. */
    public void start(String module) {
        ServiceProcess process = requireService(module);
        try {
            progress("starting " + module);
            process.start();
            awaitReady(List.of(process));
        } catch (LocalSuiteStartException e) {
            stopQuietly(process, e);
            throw e;
        } catch (IOException e) {
            throw new LocalSuiteStartException(module, "could not be started: " + e.getMessage(), process.log(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopQuietly(process, e);
            throw new LocalSuiteStartException(module, "start was interrupted", process.log(), e);
        }
    }

    /**
     * Stops the services (all at once: SIGTERM, up to the grace period, then SIGKILL), then Kafka, then
     * PostgreSQL, and removes the pid files. Safe to call from a shutdown hook while the suite is still starting:
     * it waits for the start to give up first.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        closing = true;
        Thread starting = startupThread;
        if (starting != null && starting != Thread.currentThread()) {
            try {
                startupFinished.await(
                        config.readinessTimeout().toSeconds() + KAFKA_START_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        stopEverything();
    }

    /** True once {@link #close()} was called (e.g. by a shutdown hook). */
    public boolean isClosing() {
        return closing;
    }

    // ---- starting -------------------------------------------------------------------------------------------

    /**
     * Holds a file lock on {@code suite.lock} while the suite runs. The OS releases it when this process dies,
     * however it dies, so a lock we can take proves that every pid file in the state directory is stale; a
     * lock we cannot take means a live suite owns the directory and must not be touched.
     */
    private void lockState() throws IOException {
        FileChannel channel = FileChannel.open(
                state.lock(), StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        FileLock acquired;
        try {
            acquired = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            acquired = null;
        }
        if (acquired == null) {
            String owner =
                    Files.readString(state.lock(), StandardCharsets.UTF_8).strip();
            channel.close();
            throw new LocalSuiteStartException(
                    "suite",
                    "cannot start: " + state.root() + " is in use by a running suite"
                            + (owner.isEmpty() ? "" : " (pid " + owner + ")") + "; stop it first (./herald down)",
                    null,
                    null);
        }
        channel.truncate(0);
        channel.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.UTF_8)));
        lockChannel = channel;
        lock = acquired;
    }

    private void requireFreePorts() {
        config.listeningPorts().forEach((component, port) -> {
            if (FreePorts.isTaken(port)) {
                throw new LocalSuiteStartException(
                        component,
                        "cannot listen on 127.0.0.1:" + port
                                + ": the port is already in use by another process (stop it, or choose other ports: see"
                                + " docs/local-runtime.md)",
                        null,
                        null);
            }
        });
    }

    private void requireRunnableServices() {
        for (HeraldService service : HeraldService.values()) {
            config.serviceCommand().unavailableReason(service).ifPresent(reason -> {
                throw new LocalSuiteStartException(service.module(), "cannot start: " + reason, null, null);
            });
        }
        if (config.providerFakes()) {
            ProviderFakes.unavailableReason(config.projectRoot()).ifPresent(reason -> {
                throw new LocalSuiteStartException(ProviderFakes.MODULE, "cannot start: " + reason, null, null);
            });
        }
    }

    /** PostgreSQL and Kafka start at the same time; both take a few seconds. */
    private void startInfrastructure() throws InterruptedException {
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
        checkNotClosing();
    }

    private void startPostgres() {
        Path log = state.log("postgres");
        try {
            if (config.embeddedPostgres()) {
                progress("starting PostgreSQL on 127.0.0.1:" + config.postgresPort() + " (data in "
                        + state.postgresData() + ")");
                PostgresServer started = PostgresServer.startEmbedded(config.postgresPort(), state.postgresData(), log);
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
                postgres.ensureDatabase(service.database());
            }
        } catch (IOException | SQLException | RuntimeException e) {
            String problem = config.embeddedPostgres() ? "did not start: " : "(existing server) is not usable: ";
            throw new LocalSuiteStartException("postgres", problem + e.getMessage(), log, e);
        }
    }

    private void startKafka() {
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

    /** What {@code status} and {@code down} need to know about this run; no secrets. */
    private void writeSuiteProperties() throws IOException {
        Properties properties = new Properties();
        properties.setProperty(
                "supervisor.pid", Long.toString(ProcessHandle.current().pid()));
        properties.setProperty("gateway.url", gatewayUrl());
        properties.setProperty("postgres", config.embeddedPostgres() ? "embedded" : "existing");
        properties.setProperty("kafka", config.embeddedKafka() ? "embedded" : "existing");
        if (config.providerFakes()) {
            properties.setProperty("provider-fakes.url", config.providerFakesUrl());
        }
        config.listeningPorts()
                .forEach((component, port) -> properties.setProperty("port." + component, port.toString()));
        StringWriter text = new StringWriter();
        properties.store(text, "Herald local suite started " + Instant.now());
        StateDirectory.writeAtomically(state.suiteProperties(), text.toString(), false);
    }

    private void startServices() throws IOException, InterruptedException {
        progress("starting " + HeraldService.values().length + " services (logs in " + state.logs() + ")");
        List<ServiceProcess> started = new ArrayList<>();
        for (HeraldService service : HeraldService.values()) {
            checkNotClosing();
            Path log = state.log(service.module());
            Files.deleteIfExists(log);
            ServiceProcess process = new ServiceProcess(
                    service.module(),
                    config.port(service),
                    config.serviceCommand().commandLine(service),
                    environmentFor(service),
                    log,
                    state.pidFile(service.module()));
            synchronized (this) {
                services.put(service, process);
            }
            try {
                process.start();
            } catch (IOException e) {
                throw new LocalSuiteStartException(
                        service.module(), "could not be launched: " + e.getMessage(), log, e);
            }
            started.add(process);
        }
        if (config.providerFakes()) {
            // Nothing calls a provider while starting, so the fakes start alongside the services.
            Path log = state.log(ProviderFakes.MODULE);
            Files.deleteIfExists(log);
            ServiceProcess fakes = new ServiceProcess(
                    ProviderFakes.MODULE,
                    config.providerFakesPort(),
                    ProviderFakes.commandLine(config.projectRoot()),
                    providerFakesEnvironment(),
                    log,
                    state.pidFile(ProviderFakes.MODULE));
            synchronized (this) {
                providerFakes = fakes;
            }
            try {
                fakes.start();
            } catch (IOException e) {
                throw new LocalSuiteStartException(
                        ProviderFakes.MODULE, "could not be launched: " + e.getMessage(), log, e);
            }
            started.add(fakes);
        }
        awaitReady(started);
    }

    /**
     * The environment contract between the launcher and the services (names as Quarkus maps them to config
     * properties). Every service learns every service URL, since some ask others synchronously (admission).
     */
    Map<String, String> environmentFor(HeraldService service) {
        Map<String, String> env = new LinkedHashMap<>(config.serviceEnvironment());
        env.put("QUARKUS_HTTP_HOST", "127.0.0.1");
        env.put("QUARKUS_HTTP_PORT", Integer.toString(config.port(service)));
        env.put("KAFKA_BOOTSTRAP_SERVERS", bootstrapServers);
        env.put("QUARKUS_DATASOURCE_REACTIVE_URL", postgres.reactiveUrl(service.database()));
        env.put("QUARKUS_DATASOURCE_JDBC_URL", postgres.jdbcUrl(service.database()));
        env.put("QUARKUS_DATASOURCE_USERNAME", postgres.username());
        env.put("QUARKUS_DATASOURCE_PASSWORD", postgres.password());
        env.put("HERALD_INTERNAL_JWT_PUBLIC_KEY", secrets.internalJwtPublicKey());
        env.put("HERALD_INTERNAL_JWT_PRIVATE_KEY", secrets.internalJwtPrivateKey());
        env.put("HERALD_CURSOR_SECRET", secrets.cursorSecret());
        env.put("HERALD_SECRET_CIPHER_CURRENT_KEY", secrets.secretCipherKey());
        for (HeraldService other : HeraldService.values()) {
            if (other.urlVariable() != null) {
                env.put(other.urlVariable(), "http://127.0.0.1:" + config.port(other));
            }
        }
        if (service == HeraldService.ACCOUNTS) {
            // Hosted connect links point at the gateway, which routes /connect/** to accounts-service.
            env.put("HERALD_CONNECT_PUBLIC_URL", gatewayUrl());
        }
        if (config.providerFakes() && service == HeraldService.ACCOUNTS) {
            env.putAll(ProviderFakes.accountsEnvironment(config.providerFakesUrl()));
        }
        if (config.providerFakes() && service == HeraldService.POSTS) {
            env.putAll(ProviderFakes.postsEnvironment(config.providerFakesUrl()));
        }
        if (config.providerFakes() && service == HeraldService.DELIVERY_WORKER) {
            env.putAll(ProviderFakes.deliveryEnvironment(config.providerFakesUrl()));
        }
        if (service == HeraldService.WEBHOOKS) {
            // Local receivers (http://127.0.0.1:...) for ./herald up and the system tests; production refuses
            // plain http and non-public addresses.
            env.put("HERALD_WEBHOOKS_ALLOW_PRIVATE_URLS", "true");
        }
        if (service == HeraldService.POSTS || service == HeraldService.DELIVERY_WORKER) {
            // Local media (the provider fakes' sample files at http://127.0.0.1:...) may be posted and uploaded;
            // production refuses plain http and non-public addresses at acceptance and again at transfer.
            env.put("HERALD_MEDIA_ALLOW_PRIVATE_URLS", "true");
        }
        if (service == HeraldService.API_GATEWAY) {
            env.put("HERALD_ADMIN_TOKEN", secrets.adminToken());
            env.put("HERALD_DEMO_TEST_KEY", secrets.demoTestKey());
            env.put("HERALD_DEMO_LIVE_KEY", secrets.demoLiveKey());
        }
        return env;
    }

    private Map<String, String> providerFakesEnvironment() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("QUARKUS_HTTP_HOST", "127.0.0.1");
        env.put("QUARKUS_HTTP_PORT", Integer.toString(config.providerFakesPort()));
        return env;
    }

    /** Polls every pending service's readiness each 250 ms until all answer 200, one dies, or time runs out. */
    private void awaitReady(Collection<ServiceProcess> processes) throws InterruptedException {
        Instant started = Instant.now();
        Instant deadline = started.plus(config.readinessTimeout());
        Set<ServiceProcess> pending = new LinkedHashSet<>(processes);
        Map<ServiceProcess, ReadinessProbe.Result> lastAnswer = new LinkedHashMap<>();
        while (true) {
            checkNotClosing();
            for (ServiceProcess process : pending) {
                if (!process.isAlive()) {
                    throw new LocalSuiteStartException(
                            process.name(),
                            "exited with code " + process.exitCode() + " before it was ready",
                            process.log(),
                            null);
                }
            }
            Map<ServiceProcess, CompletableFuture<ReadinessProbe.Result>> probes = new LinkedHashMap<>();
            pending.forEach(process -> probes.put(process, probe.probe(process.port())));
            probes.forEach((process, answer) -> {
                ReadinessProbe.Result result = answer.join();
                lastAnswer.put(process, result);
                if (result.ready()) {
                    pending.remove(process);
                    progress(process.name() + " is ready on port " + process.port() + " ("
                            + Duration.between(started, Instant.now()).toMillis() / 100 / 10.0 + " s)");
                }
            });
            if (pending.isEmpty()) {
                return;
            }
            if (Instant.now().isAfter(deadline)) {
                ServiceProcess late = pending.iterator().next();
                throw new LocalSuiteStartException(
                        late.name(),
                        "was not ready within "
                                + config.readinessTimeout().toSeconds() + " s (last readiness answer: "
                                + lastAnswer.get(late)
                                + ")",
                        late.log(),
                        null);
            }
            Thread.sleep(POLL_INTERVAL.toMillis());
        }
    }

    private void checkNotClosing() {
        if (closing) {
            throw new LocalSuiteStartException("suite", "start abandoned: the suite is shutting down", null, null);
        }
    }

    // ---- stopping -------------------------------------------------------------------------------------------

    /** Stops whatever this instance started, in reverse dependency order; keeps going past failures. */
    private synchronized void stopEverything() {
        List<Exception> failures = new ArrayList<>();
        List<ServiceProcess> processes = new ArrayList<>(services.values());
        if (providerFakes != null) {
            processes.add(providerFakes);
        }
        if (!processes.isEmpty()) {
            progress("stopping services");
            processes.forEach(ServiceProcess::signalStop);
            for (ServiceProcess process : processes) {
                try {
                    process.stop(config.stopGracePeriod());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    failures.add(e);
                } catch (IOException | RuntimeException e) {
                    failures.add(e);
                }
            }
            services.clear();
            providerFakes = null;
        }
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
        releaseLock(failures);
        if (!failures.isEmpty()) {
            IllegalStateException failure = new IllegalStateException(
                    "stopping the suite failed: " + failures.get(0).getMessage(), failures.get(0));
            failures.stream().skip(1).forEach(failure::addSuppressed);
            throw failure;
        }
    }

    private void deletePidFile(String component, List<Exception> failures) {
        try {
            Files.deleteIfExists(state.pidFile(component));
        } catch (IOException e) {
            failures.add(e);
        }
    }

    private void releaseLock(List<Exception> failures) {
        if (lock == null) {
            return;
        }
        try {
            // suite.properties describes a running suite; it is ours to remove only while we hold the lock.
            Files.deleteIfExists(state.suiteProperties());
            lockChannel.truncate(0);
            lock.release();
            lockChannel.close();
        } catch (IOException e) {
            failures.add(e);
        }
        lock = null;
        lockChannel = null;
    }

    /** Cleans up after a failed start; a failure to clean up is attached to the start failure, not lost. */
    private LocalSuiteStartException stopAfterFailure(LocalSuiteStartException failure) {
        try {
            stopEverything();
        } catch (RuntimeException e) {
            failure.addSuppressed(e);
        }
        return failure;
    }

    private void stopQuietly(ServiceProcess process, Exception reason) {
        try {
            process.stop(config.stopGracePeriod());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            reason.addSuppressed(e);
        } catch (IOException | RuntimeException e) {
            reason.addSuppressed(e);
        }
    }

    private synchronized ServiceProcess service(String module) {
        if (ProviderFakes.MODULE.equals(module)) {
            return providerFakes;
        }
        return services.get(HeraldService.ofModule(module));
    }

    private ServiceProcess requireService(String module) {
        ServiceProcess process = service(module);
        if (process == null) {
            throw new IllegalStateException("the suite is not running, so " + module + " cannot be controlled");
        }
        return process;
    }

    private void progress(String message) {
        config.progress().accept(message);
    }
}
