package dev.herald.local;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
 *
 * <p>This class orders the steps; {@link SuiteLock} guards the state directory, {@link SuiteInfrastructure} runs
 * PostgreSQL and Kafka, {@link SuiteProcesses} the services with their {@link ServiceEnvironment}, and
 * {@link SuiteProperties} records the run for {@code status} and {@code down}; once everything is ready, the
 * {@link CrashSupervisor} restarts what crashes, and the methods that stop, kill and start one component take it out
 * of supervision and back. It is longer than 300 lines (mostly the small control methods tests use, each with its
 * javadoc) so that the order of starting, supervising and stopping reads in one place.
 */
public final class LocalSuite implements AutoCloseable {
    private final LocalSuiteConfig config;
    private final StateDirectory state;
    private final SuiteInfrastructure infrastructure;
    private final SuiteProcesses processes;

    private final CountDownLatch startupFinished = new CountDownLatch(1);
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile boolean closing;
    private volatile Thread startupThread;

    private SuiteLock lock;
    private LocalSecrets secrets;
    private volatile CrashSupervisor supervisor;

    private LocalSuite(LocalSuiteConfig config) {
        // Everything the suite reports also goes to logs/herald.log, whoever started it.
        this.config = config.toBuilder()
                .progress(config.progress().andThen(new HeraldLog(config.state().log("herald"))))
                .build();
        this.state = config.state();
        this.infrastructure = new SuiteInfrastructure(this.config, state);
        this.processes = new SuiteProcesses(this.config, state, this::checkNotClosing);
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
            lock = SuiteLock.acquire(state);
            List<String> leftovers = new StaleProcesses(
                            state, StaleProcesses.markersOf(config), config.stopGracePeriod(), this::progress)
                    .reap();
            if (!leftovers.isEmpty()) {
                progress("stopped leftovers of an earlier run: " + String.join(", ", leftovers));
            }
            requireFreePorts();
            requireRunnableServices();
            secrets = LocalSecrets.loadOrGenerate(state.secrets()).withOverrides(config);
            KeyDirectories.write(state, secrets);
            infrastructure.start();
            checkNotClosing();
            SuiteProperties.write(state, config, gatewayUrl());
            processes.startAll(new ServiceEnvironment(
                    config, infrastructure.bootstrapServers(), infrastructure.postgres(), secrets, state));
            progress("all " + processes.serviceCount() + " services are ready"
                    + (processes.runsProviderFakes()
                            ? ", and the provider fakes at " + config.providerFakesUrl()
                            : ""));
            List<CrashSupervisor.Component> components = new ArrayList<>(infrastructure.components());
            components.addAll(processes.components());
            supervisor = CrashSupervisor.start(components, RestartPolicy.STANDARD, state, this::progress);
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

    /** Signs the demo workspace's owner in to the dashboard once (the gateway consumes it); new on every start. */
    public String dashboardSignInUrl() {
        return gatewayUrl() + "/dashboard/sign-in/" + secrets.dashboardSignInToken();
    }

    /** The internal JWT keys and cursor secret too, for tests that mint internal tokens. */
    /** Where the running services read the internal JWT's keys (see {@link KeyDirectories#writeInternalJwt}). */
    public Path internalJwtKeyDirectory() {
        return state.internalJwtKeys();
    }

    /** Where the running services read the secret cipher's keys (see {@link KeyDirectories#writeCipher}). */
    public Path cipherKeyDirectory() {
        return state.cipherKeys();
    }

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

    /**
     * Service module to the port it answers {@code /q/health} and {@code /q/metrics} on: the gateway's management
     * port (its public port answers nothing under {@code /q}), each other service's own port.
     */
    public Map<String, Integer> managementPorts() {
        Map<String, Integer> ports = new LinkedHashMap<>();
        for (HeraldService service : HeraldService.values()) {
            ports.put(service.module(), config.managementPort(service));
        }
        return ports;
    }

    /** {@code http://127.0.0.1:<port>} of the provider fakes and their {@code /_fakes} control API. */
    public String providerFakesUrl() {
        return config.providerFakesUrl();
    }

    public PostgresServer postgres() {
        return infrastructure.postgres();
    }

    public String kafkaBootstrapServers() {
        return infrastructure.bootstrapServers();
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
        return processes.isRunning(module);
    }

    /** The exit code of a service's last run (after {@link #stop} or {@link #kill}), or -1 while it runs. */
    public int exitCode(String module) {
        return processes.exitCode(module);
    }

    /** Stops one service gracefully (SIGTERM, SIGKILL after the grace period). */
    public void stop(String module) {
        hold(module);
        processes.stop(module);
    }

    /**
     * Kills one service with SIGKILL, as a crash would: no graceful shutdown, pid file left behind. The caller brings
     * it back with {@link #start}; the supervisor leaves it down meanwhile (a crash it should restart is a SIGKILL
     * from outside, e.g. to the pid in {@code pids/<module>.pid}).
     */
    public void kill(String module) {
        hold(module);
        processes.kill(module);
    }

    /**
     * Kills the embedded Kafka broker with SIGKILL, as a crash would. Services keep running and retry; {@link
     * #restartBroker()} brings it back on the same data and port.
     */
    public void killBroker() {
        hold("kafka");
        infrastructure.killBroker();
    }

    /** Starts the embedded Kafka broker again (after {@link #killBroker()}) on its data and port. */
    public void restartBroker() {
        infrastructure.restartBroker();
        release("kafka");
    }

    /**
     * Kills the embedded PostgreSQL server (postmaster and backends) with SIGKILL, as a crash would. Services keep
     * running; their connections fail until {@link #restartDatabase()}.
     */
    public void killDatabase() {
        hold("postgres");
        infrastructure.killDatabase();
    }

    /** Starts the embedded PostgreSQL server again (after {@link #killDatabase()}); it recovers from its WAL. */
    public void restartDatabase() {
        infrastructure.restartDatabase();
        release("postgres");
    }

    /** Starts a stopped (or killed) service again and waits until it is ready. */
    public void start(String module) {
        processes.start(module);
        release(module);
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
                        config.readinessTimeout().toSeconds() + SuiteInfrastructure.KAFKA_START_TIMEOUT.toSeconds(),
                        TimeUnit.SECONDS);
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

    private void checkNotClosing() {
        if (closing) {
            throw new LocalSuiteStartException("suite", "start abandoned: the suite is shutting down", null, null);
        }
    }

    // ---- stopping -------------------------------------------------------------------------------------------

    /** Stops whatever this instance started, in reverse dependency order; keeps going past failures. */
    private synchronized void stopEverything() {
        CrashSupervisor watching = supervisor;
        if (watching != null) {
            // First, so that nothing is restarted while the suite stops.
            watching.close();
            supervisor = null;
        }
        List<Exception> failures = new ArrayList<>();
        processes.stopAll(failures);
        infrastructure.stop(failures);
        if (lock != null) {
            try {
                lock.release();
            } catch (IOException e) {
                failures.add(e);
            }
            lock = null;
        }
        if (!failures.isEmpty()) {
            IllegalStateException failure = new IllegalStateException(
                    "stopping the suite failed: " + failures.get(0).getMessage(), failures.get(0));
            failures.stream().skip(1).forEach(failure::addSuppressed);
            throw failure;
        }
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

    private void hold(String component) {
        CrashSupervisor watching = supervisor;
        if (watching != null) {
            watching.hold(component);
        }
    }

    private void release(String component) {
        CrashSupervisor watching = supervisor;
        if (watching != null) {
            watching.release(component);
        }
    }

    private void progress(String message) {
        config.progress().accept(message);
    }
}
