package dev.herald.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.OptionalLong;

/**
 * The layout of the local runtime's state directory ({@code .herald/} by default):
 * <pre>
 *   secrets.properties   generated keys and tokens, reused by every start (mode 600)
 *   credentials          what {@code up} printed: base URL, demo keys, admin token, dashboard link (mode 600)
 *   suite.properties     ports of the running suite, for {@code status} and {@code down}
 *   supervision.properties each component's restarts, last exit and state, for {@code status}
 *   suite.lock           held (file lock) by the process that runs the suite
 *   herald.pid, ready    the {@code up} supervisor's pid; {@code ready} appears once everything answers
 *   pids/&lt;name&gt;.pid     one per child process (services, kafka, postgres' postmaster)
 *   logs/&lt;name&gt;.log     output of every service, of Kafka and PostgreSQL, and of a detached {@code up}
 *   postgres/, kafka/    data of the embedded servers; survives down/up
 * </pre>
 */
public record StateDirectory(Path root) {

    public Path pids() {
        return root.resolve("pids");
    }

    public Path logs() {
        return root.resolve("logs");
    }

    public Path pidFile(String component) {
        return pids().resolve(component + ".pid");
    }

    public Path log(String component) {
        return logs().resolve(component + ".log");
    }

    public Path secrets() {
        return root.resolve("secrets.properties");
    }

    /** The internal JWT's keys as files, which the services read again when they change ({@link KeyDirectories}). */
    public Path internalJwtKeys() {
        return root.resolve("keys/internal-jwt");
    }

    /** The secret cipher's keys as files, which the services read again when they change ({@link KeyDirectories}). */
    public Path cipherKeys() {
        return root.resolve("keys/cipher");
    }

    public Path credentials() {
        return root.resolve("credentials");
    }

    public Path suiteProperties() {
        return root.resolve("suite.properties");
    }

    public Path supervision() {
        return root.resolve("supervision.properties");
    }

    public Path lock() {
        return root.resolve("suite.lock");
    }

    public Path supervisorPid() {
        return root.resolve("herald.pid");
    }

    public Path ready() {
        return root.resolve("ready");
    }

    public Path postgresData() {
        return root.resolve("postgres");
    }

    public Path kafkaWork() {
        return root.resolve("kafka");
    }

    public void create() throws IOException {
        Files.createDirectories(pids());
        Files.createDirectories(logs());
    }

    /** The first line of a pid file as a number; empty when the file is missing or garbage. */
    public static OptionalLong readPid(Path file) {
        try {
            String text = Files.readString(file, StandardCharsets.UTF_8).strip();
            int newline = text.indexOf('\n');
            return OptionalLong.of(Long.parseLong((newline < 0 ? text : text.substring(0, newline)).strip()));
        } catch (java.nio.file.NoSuchFileException | NumberFormatException e) {
            return OptionalLong.empty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static void writePid(Path file, long pid) throws IOException {
        writeAtomically(file, pid + "\n", false);
    }

    /**
     * Writes through a temporary file and a rename so a reader (or a crash) never sees half a file; with
     * {@code ownerOnly} the file is created with mode 600 before any secret is written into it.
     */
    public static void writeAtomically(Path file, String content, boolean ownerOnly) throws IOException {
        Files.createDirectories(file.getParent());
        Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
        Files.deleteIfExists(temporary);
        if (ownerOnly) {
            Files.createFile(
                    temporary, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        }
        Files.writeString(temporary, content, StandardCharsets.UTF_8);
        try {
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
