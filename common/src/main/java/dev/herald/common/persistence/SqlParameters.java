package dev.herald.common.persistence;

import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/** Statement parameters as the reactive client binds them (nulls allowed; instants as UTC timestamptz), and back. */
public final class SqlParameters {
    private SqlParameters() {}

    public static Tuple of(Object... values) {
        Tuple tuple = Tuple.tuple();
        for (Object value : values) {
            tuple.addValue(value instanceof Instant instant ? offset(instant) : value);
        }
        return tuple;
    }

    public static OffsetDateTime offset(Instant instant) {
        return instant == null ? null : OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    public static OffsetDateTime[] offsets(Instant[] instants) {
        OffsetDateTime[] values = new OffsetDateTime[instants.length];
        for (int i = 0; i < instants.length; i++) {
            values[i] = offset(instants[i]);
        }
        return values;
    }

    public static Instant instant(Row row, String column) {
        OffsetDateTime value = row.getOffsetDateTime(column);
        return value == null ? null : value.toInstant();
    }
}
