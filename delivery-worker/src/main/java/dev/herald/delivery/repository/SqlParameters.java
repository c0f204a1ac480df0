package dev.herald.delivery.repository;

import io.vertx.mutiny.sqlclient.Tuple;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/** Statement parameters as the reactive client binds them (nulls allowed; instants as UTC timestamptz). */
final class SqlParameters {
    private SqlParameters() {
    }

    static Tuple of(Object... values) {
        Tuple tuple = Tuple.tuple();
        for (Object value : values) {
            tuple.addValue(value instanceof Instant instant ? OffsetDateTime.ofInstant(instant, ZoneOffset.UTC) : value);
        }
        return tuple;
    }
}
