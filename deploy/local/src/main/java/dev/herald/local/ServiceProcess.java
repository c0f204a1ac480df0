package dev.herald.local;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One service of the suite (or the provider fakes next to it) running as a child process, its output going to its
 * log file.
 */
public final class ServiceProcess {
    private final String name;
    private final int port;
    private final List<String> command;
    private final Map<String, String> environment;
    private final Path log;
    private final Path pidFile;
    private final Path workingDirectory;
    private Process process;

    /** @param name the Maven module, also the name of its log and pid files */
    public ServiceProcess(
            String name, int port, List<String> command, Map<String, String> environment, Path log, Path pidFile) {
        this(name, port, command, environment, log, pidFile, null);
    }

    /** The same, run in {@code workingDirectory} (null: the launcher's own). */
    public ServiceProcess(
            String name,
            int port,
            List<String> command,
            Map<String, String> environment,
            Path log,
            Path pidFile,
            Path workingDirectory) {
        this.workingDirectory = workingDirectory;
        this.name = name;
        this.port = port;
        this.command = List.copyOf(command);
        this.environment = Map.copyOf(environment);
        this.log = log;
        this.pidFile = pidFile;
    }

    /** Starts the process and records its pid; output is appended so a restart keeps the earlier story. */
    public synchronized void start() throws IOException {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException(name + " is already running (pid " + process.pid() + ")");
        }
        Files.createDirectories(log.getParent());
        Files.writeString(
                log,
                "=== " + Instant.now() + " starting " + name + " on port " + port + "\n",
                StandardCharsets.UTF_8,
                StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        builder.environment().putAll(environment);
        if (workingDirectory != null) {
            builder.directory(workingDirectory.toFile());
        }
        process = builder.start();
        StateDirectory.writePid(pidFile, process.pid());
    }

    /** Stops the service (SIGTERM, then SIGKILL after the grace period) and removes its pid file. */
    public synchronized void stop(Duration grace) throws InterruptedException, IOException {
        if (process != null && process.isAlive()) {
            new ProcessTree(process.toHandle()).stop(grace);
            awaitReaped();
        }
        Files.deleteIfExists(pidFile);
    }

    /** SIGKILL without warning, as a crash would end it; the pid file stays, as after a crash. */
    public synchronized void kill() throws InterruptedException {
        if (process != null && process.isAlive()) {
            new ProcessTree(process.toHandle()).kill();
            awaitReaped();
        }
    }

    /** The JDK reaps its children on its own thread; wait for it so that isAlive() and exitCode() agree. */
    private void awaitReaped() throws InterruptedException {
        process.waitFor(5, java.util.concurrent.TimeUnit.SECONDS);
    }

    /** Sends SIGTERM without waiting, so that several services can shut down at the same time. */
    synchronized void signalStop() {
        if (process != null && process.isAlive()) {
            process.toHandle().descendants().forEach(ProcessHandle::destroy);
            process.destroy();
        }
    }

    public synchronized boolean isAlive() {
        return process != null && process.isAlive();
    }

    /** The exit code, or -1 while running or before the first start. */
    public synchronized int exitCode() {
        return process == null || process.isAlive() ? -1 : process.exitValue();
    }

    public synchronized long pid() {
        return process == null ? -1 : process.pid();
    }

    public String name() {
        return name;
    }

    public int port() {
        return port;
    }

    public Path log() {
        return log;
    }
}
