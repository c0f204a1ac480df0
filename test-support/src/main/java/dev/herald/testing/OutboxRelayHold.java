package dev.herald.testing;

import dev.herald.common.outbox.OutboxRelay;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * Holds a service's outbox relay off, as a second relay would: a transaction on the test's own connection takes the
 * relay's advisory lock, and every relay tick publishes nothing until {@link #close()}. For tests that look at the
 * outbox rows a step wrote, or that need rows the relay must not send.
 */
public final class OutboxRelayHold implements AutoCloseable {
    private final Connection connection;

    private OutboxRelayHold(Connection connection) {
        this.connection = connection;
    }

    /** Waits for a drain in progress to end, then holds the relay of the service whose database this is. */
    public static OutboxRelayHold on(String database) throws SQLException {
        Connection connection = RealInfrastructure.connect(database);
        try {
            connection.setAutoCommit(false);
            try (PreparedStatement lock = connection.prepareStatement("select pg_advisory_xact_lock(?)")) {
                lock.setLong(1, OutboxRelay.RELAY_LOCK);
                lock.execute();
            }
            return new OutboxRelayHold(connection);
        } catch (SQLException | RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    /** Lets the relay run again. */
    @Override
    public void close() throws SQLException {
        try {
            connection.rollback();
        } finally {
            connection.close();
        }
    }
}
