package dev.herald.local;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * The PostgreSQL server Herald's services keep their databases in: an embedded PostgreSQL 17 (zonky) by
 * default, or an existing server given as {@code postgresql://user:password@host:port}. Each service gets
 * its own database on it.
 */
public final class PostgresServer implements AutoCloseable {
    private static final Pattern DATABASE_NAME = Pattern.compile("^[a-z][a-z0-9_]{0,62}$");

    private final EmbeddedPostgres embedded;
    private final Path dataDirectory;
    private final String host;
    private final int port;
    private final String username;
    private final String password;

    private PostgresServer(
            EmbeddedPostgres embedded, Path dataDirectory, String host, int port, String username, String password) {
        this.embedded = embedded;
        this.dataDirectory = dataDirectory;
        this.host = host;
        this.port = port;
        this.username = username;
        this.password = password;
    }

    /** Starts an embedded server; with a data directory its data survives restarts. */
    public static PostgresServer startEmbedded(int port, Path dataDirectory) throws IOException {
        EmbeddedPostgres.Builder builder = builder(port);
        if (dataDirectory != null) {
            builder.setDataDirectory(dataDirectory).setCleanDataDirectory(false);
        }
        EmbeddedPostgres postgres = builder.start();
        return new PostgresServer(postgres, dataDirectory, "127.0.0.1", postgres.getPort(), "postgres", "");
    }

    /**
     * Starts an embedded server whose lifecycle the caller owns: data kept in {@code dataDirectory}, server
     * output appended to {@code logFile}, and no JVM shutdown hook of its own, so the caller can stop the
     * services that use it before it (zonky's hook would stop it concurrently with them). {@code durable}: with
     * {@code fsync} on, as a production server runs, so a commit also survives a crash of the machine.
     */
    public static PostgresServer startEmbedded(int port, Path dataDirectory, Path logFile, boolean durable)
            throws IOException {
        Path data = dataDirectory.toAbsolutePath().normalize();
        ProcessBuilder.Redirect log = ProcessBuilder.Redirect.appendTo(logFile.toFile());
        EmbeddedPostgres postgres = builder(port)
                .setDataDirectory(data)
                .setCleanDataDirectory(false)
                .setRegisterShutdownHook(false)
                .setOutputRedirector(log)
                .setErrorRedirector(log)
                .setPGStartupWait(Duration.ofSeconds(60))
                // zonky turns synchronous commit off, for tests; here a commit must survive a crash of the server
                // the moment it is acknowledged, as on any production PostgreSQL (CrashRecoveryIT kills it).
                .setServerConfig("synchronous_commit", "on")
                // zonky starts the server with -F (fsync off); a -c fsync=on after it on the command line wins.
                .setServerConfig("fsync", durable ? "on" : "off")
                .start();
        return new PostgresServer(postgres, data, "127.0.0.1", postgres.getPort(), "postgres", "");
    }

    private static EmbeddedPostgres.Builder builder(int port) {
        return EmbeddedPostgres.builder()
                .setPort(port)
                .setServerConfig("max_connections", "300")
                .setServerConfig("listen_addresses", "127.0.0.1")
                // An autovacuum run long enough to matter is logged (postgres.log), so a latency spike can be lined
                // up with it; checkpoints are logged by default.
                .setServerConfig("log_autovacuum_min_duration", "250ms");
    }

    /** An existing server, {@code postgresql://user:password@host:port[/anything]}. */
    public static PostgresServer existing(String url) {
        URI uri = URI.create(url.replaceFirst("^jdbc:", "").replaceFirst("^postgres://", "postgresql://"));
        String userInfo = uri.getUserInfo() == null ? "postgres" : uri.getUserInfo();
        int colon = userInfo.indexOf(':');
        String user = colon < 0 ? userInfo : userInfo.substring(0, colon);
        String password = colon < 0 ? "" : userInfo.substring(colon + 1);
        return new PostgresServer(null, null, uri.getHost(), uri.getPort() < 0 ? 5432 : uri.getPort(), user, password);
    }

    /** Creates the database unless it exists. */
    public void ensureDatabase(String name) throws SQLException {
        if (!DATABASE_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("not a database name: " + name);
        }
        try (Connection connection = connect("postgres");
                PreparedStatement exists = connection.prepareStatement("select 1 from pg_database where datname = ?")) {
            exists.setString(1, name);
            try (ResultSet rows = exists.executeQuery()) {
                if (rows.next()) {
                    return;
                }
            }
            try (Statement create = connection.createStatement()) {
                create.execute("create database " + name);
            } catch (SQLException e) {
                // Another process created it between our check and our create.
                if (!"42P04".equals(e.getSQLState())) {
                    throw e;
                }
            }
        }
    }

    /** A JDBC connection to one of this server's databases; the caller closes it. */
    public Connection connect(String database) throws SQLException {
        return DriverManager.getConnection(jdbcUrl(database), username, password);
    }

    public String jdbcUrl(String database) {
        return "jdbc:postgresql://" + host + ":" + port + "/" + database;
    }

    public String reactiveUrl(String database) {
        return "postgresql://" + host + ":" + port + "/" + database;
    }

    public String username() {
        return username;
    }

    public String password() {
        return password;
    }

    public int port() {
        return port;
    }

    public String host() {
        return host;
    }

    public boolean isEmbedded() {
        return embedded != null;
    }

    /**
     * The pid of the running postmaster, from the first line of {@code postmaster.pid} in the data directory
     * (zonky starts it through {@code pg_ctl}, so it is not a child process of ours).
     */
    public OptionalLong postmasterPid() {
        return dataDirectory == null
                ? OptionalLong.empty()
                : StateDirectory.readPid(dataDirectory.resolve("postmaster.pid"));
    }

    /**
     * Whether the embedded server's postmaster still runs (judged by its command line, which names the data
     * directory, so a recycled pid does not count); always true for an existing server, which is not ours to watch.
     */
    public boolean isRunning() {
        if (embedded == null) {
            return true;
        }
        OptionalLong postmaster = postmasterPid();
        return postmaster.isPresent()
                && ProcessTree.of(postmaster.getAsLong())
                        .filter(p -> p.runs(dataDirectory.toString()))
                        .isPresent();
    }

    /**
     * SIGKILL for the postmaster and every backend, as a crash of its machine would end them: no checkpoint, the
     * next start replays the write-ahead log. Embedded servers only.
     */
    public void kill() throws InterruptedException {
        if (embedded == null) {
            throw new IllegalStateException("only an embedded server can be killed");
        }
        OptionalLong postmaster = postmasterPid();
        if (postmaster.isPresent()) {
            var tree = ProcessTree.of(postmaster.getAsLong()).filter(p -> p.runs(dataDirectory.toString()));
            if (tree.isPresent()) {
                tree.get().kill();
            }
        }
        // Releases zonky's lock on the data directory, which the next start in this JVM takes again; its "pg_ctl
        // stop" finds no server and only logs that.
        try {
            embedded.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() throws IOException {
        if (embedded == null) {
            return;
        }
        OptionalLong postmaster = postmasterPid();
        // zonky runs "pg_ctl stop -m fast" and only logs a failure; make sure the server is really gone so its
        // port and data directory are free for the next start.
        embedded.close();
        if (postmaster.isPresent()) {
            var leftover = ProcessTree.of(postmaster.getAsLong()).filter(p -> p.runs(dataDirectory.toString()));
            if (leftover.isPresent()) {
                try {
                    leftover.get().stop(Duration.ofSeconds(15));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while stopping PostgreSQL", e);
                }
            }
        }
    }
}
