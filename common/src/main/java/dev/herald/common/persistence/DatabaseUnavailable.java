package dev.herald.common.persistence;

import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.ClosedConnectionException;
import java.net.ConnectException;
import java.net.SocketException;
import java.util.Set;

/**
 * Recognises a failure that says the database cannot be reached right now (refused or lost connection, a server
 * shutting down, starting up or out of connections), as opposed to a bug or a broken request. A request that fails
 * this way is answered {@code 503 service_unavailable}, which clients retry, rather than {@code 500}.
 */
public final class DatabaseUnavailable {
    /**
     * PostgreSQL's SQLSTATEs for an unavailable server: class 08 (connection exception) is matched by prefix; 57P01
     * admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now, 53300 too many connections.
     */
    private static final Set<String> UNAVAILABLE_STATES = Set.of("57P01", "57P02", "57P03", "53300");

    private static final int MAX_CAUSES = 16;

    private DatabaseUnavailable() {}

    /** True when {@code failure}, or anything it wraps, says the database cannot be reached right now. */
    public static boolean explains(Throwable failure) {
        Throwable cause = failure;
        for (int depth = 0; cause != null && depth < MAX_CAUSES; depth++, cause = cause.getCause()) {
            if (cause instanceof ClosedConnectionException
                    || cause instanceof ConnectException
                    || cause instanceof SocketException) {
                return true;
            }
            if (cause instanceof PgException pg
                    && pg.getSqlState() != null
                    && (pg.getSqlState().startsWith("08") || UNAVAILABLE_STATES.contains(pg.getSqlState()))) {
                return true;
            }
        }
        return false;
    }
}
