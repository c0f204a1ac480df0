package dev.herald.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The suite's child processes, every service and the provider fakes when configured: launched together and
 * awaited until ready, stopped, killed and started again one at a time, and stopped together. Part of
 * {@link LocalSuite}; {@code abandonIfClosing} throws once the suite is shutting down.
 */
final class SuiteProcesses {
    private static final Duration POLL_INTERVAL = Duration.ofMillis(250);

    private final LocalSuiteConfig config;
    private final StateDirectory state;
    private final Runnable abandonIfClosing;
    private final ReadinessProbe probe = new ReadinessProbe();
    private final Map<HeraldService, ServiceProcess> services = new EnumMap<>(HeraldService.class);
    /** The provider fakes' process, when the configuration asks for them. */
    private ServiceProcess providerFakes;

    SuiteProcesses(LocalSuiteConfig config, StateDirectory state, Runnable abandonIfClosing) {
        this.config = config;
        this.state = state;
        this.abandonIfClosing = abandonIfClosing;
    }

    synchronized int serviceCount() {
        return services.size();
    }

    synchronized boolean runsProviderFakes() {
        return providerFakes != null;
    }

    /** Launches every service (and the fakes) and returns once all are ready. */
    void startAll(ServiceEnvironment environment) throws IOException, InterruptedException {
        progress("starting " + HeraldService.values().length + " services (logs in " + state.logs() + ")");
        List<ServiceProcess> started = new ArrayList<>();
        for (HeraldService service : HeraldService.values()) {
            abandonIfClosing.run();
            Map<String, String> serviceEnvironment = environment.of(service);
            ServiceProcess process = launch(
                    service.module(),
                    config.port(service),
                    config.serviceCommand().commandLine(service, serviceEnvironment),
                    serviceEnvironment,
                    config.serviceCommand().workingDirectory(service).orElse(null));
            synchronized (this) {
                services.put(service, process);
            }
            start(process);
            started.add(process);
        }
        if (config.providerFakes()) {
            // Nothing calls a provider while starting, so the fakes start alongside the services.
            ServiceProcess fakes = launch(
                    ProviderFakes.MODULE,
                    config.providerFakesPort(),
                    ProviderFakes.commandLine(config.projectRoot()),
                    environment.ofProviderFakes(),
                    null);
            synchronized (this) {
                providerFakes = fakes;
            }
            start(fakes);
            started.add(fakes);
        }
        awaitReady(started);
    }

    private ServiceProcess launch(
            String module, int port, List<String> commandLine, Map<String, String> env, Path workingDirectory)
            throws IOException {
        Path log = state.log(module);
        Files.deleteIfExists(log);
        return new ServiceProcess(module, port, commandLine, env, log, state.pidFile(module), workingDirectory);
    }

    private static void start(ServiceProcess process) {
        try {
            process.start();
        } catch (IOException e) {
            throw new LocalSuiteStartException(
                    process.name(), "could not be launched: " + e.getMessage(), process.log(), e);
        }
    }

    boolean isRunning(String module) {
        ServiceProcess process = service(module);
        return process != null && process.isAlive();
    }

    /** How the service's last run ended: its exit code, or -1 while it runs or before it first ran. */
    int exitCode(String module) {
        return requireService(module).exitCode();
    }

    /** Stops one service gracefully (SIGTERM, SIGKILL after the grace period). */
    void stop(String module) {
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
    void kill(String module) {
        try {
            progress("killing " + module);
            requireService(module).kill();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while killing " + module, e);
        }
    }

    /** Starts a stopped (or killed) service again and waits until it is ready. */
    void start(String module) {
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

    /** Stops every process at once (SIGTERM, up to the grace period, then SIGKILL); keeps going past failures. */
    synchronized void stopAll(List<Exception> failures) {
        List<ServiceProcess> processes = new ArrayList<>(services.values());
        if (providerFakes != null) {
            processes.add(providerFakes);
        }
        if (processes.isEmpty()) {
            return;
        }
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

    /** Every process as the {@link CrashSupervisor} watches it: a restart launches it again, without awaiting it. */
    synchronized List<CrashSupervisor.Component> components() {
        List<ServiceProcess> processes = new ArrayList<>(services.values());
        if (providerFakes != null) {
            processes.add(providerFakes);
        }
        return processes.stream()
                .map(process -> new CrashSupervisor.Component(
                        process.name(),
                        false,
                        process::isAlive,
                        () -> RestartPolicy.describeExit(process.exitCode()),
                        process::start,
                        process.log()))
                .toList();
    }

    /** The gateway answers its probes on its management port; the other services and the fakes on their own. */
    private int readinessPort(ServiceProcess process) {
        return process.name().equals(ProviderFakes.MODULE)
                ? process.port()
                : config.managementPort(HeraldService.ofModule(process.name()));
    }

    /** Polls every pending service's readiness each 250 ms until all answer 200, one dies, or time runs out. */
    private void awaitReady(Collection<ServiceProcess> processes) throws InterruptedException {
        Instant started = Instant.now();
        Instant deadline = started.plus(config.readinessTimeout());
        Set<ServiceProcess> pending = new LinkedHashSet<>(processes);
        Map<ServiceProcess, ReadinessProbe.Result> lastAnswer = new LinkedHashMap<>();
        while (true) {
            abandonIfClosing.run();
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
            pending.forEach(process -> probes.put(process, probe.probe(readinessPort(process))));
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
