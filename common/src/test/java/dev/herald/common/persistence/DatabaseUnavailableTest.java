package dev.herald.common.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.ClosedConnectionException;
import java.net.ConnectException;
import java.net.SocketException;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

class DatabaseUnavailableTest {
    private static PgException state(String sqlState) {
        return new PgException("message", "FATAL", sqlState, null);
    }

    @Test
    void aLostRefusedOrResetConnectionIsAnOutageHoweverDeeplyWrapped() {
        assertThat(DatabaseUnavailable.explains(ClosedConnectionException.INSTANCE))
                .isTrue();
        assertThat(DatabaseUnavailable.explains(new ConnectException("Connection refused")))
                .isTrue();
        assertThat(DatabaseUnavailable.explains(new SocketException("Connection reset")))
                .isTrue();
        assertThat(DatabaseUnavailable.explains(new CompletionException(
                        new IllegalStateException("transaction", ClosedConnectionException.INSTANCE))))
                .isTrue();
    }

    @Test
    void aServerShuttingDownStartingUpOrFullIsAnOutage() {
        assertThat(DatabaseUnavailable.explains(state("57P01"))).isTrue();
        assertThat(DatabaseUnavailable.explains(state("57P02"))).isTrue();
        assertThat(DatabaseUnavailable.explains(state("57P03"))).isTrue();
        assertThat(DatabaseUnavailable.explains(state("53300"))).isTrue();
        assertThat(DatabaseUnavailable.explains(state("08006"))).isTrue();
    }

    @Test
    void bugsAndRefusedStatementsAreNot() {
        assertThat(DatabaseUnavailable.explains(state("23505")))
                .as("unique violation")
                .isFalse();
        assertThat(DatabaseUnavailable.explains(state("42P01")))
                .as("undefined table")
                .isFalse();
        assertThat(DatabaseUnavailable.explains(new NullPointerException())).isFalse();
        assertThat(DatabaseUnavailable.explains(new CompletionException(new IllegalArgumentException("bad"))))
                .isFalse();
    }
}
