package dev.herald.common.persistence;

import io.vertx.mutiny.sqlclient.Row;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/** Instants as the reactive client binds them (UTC timestamptz, nulls allowed), and back from a row. */
public final class SqlParameters {
    private SqlParameters() {}

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
