package dev.herald.common.persistence;

import java.util.List;

/**
 * The row of a lookup by a unique key, from the list its query returned; null when there is none. Repositories look
 * rows up with {@code list()} and this rather than Panache's {@code firstResult()}: that adds a row-limit parameter,
 * and PostgreSQL then plans the statement anew at every execution instead of settling on a generic plan.
 */
public final class UniqueRow {
    private UniqueRow() {}

    public static <T> T of(List<T> rows) {
        if (rows.size() > 1) {
            throw new IllegalStateException("a lookup by a unique key found " + rows.size() + " rows");
        }
        return rows.isEmpty() ? null : rows.get(0);
    }
}
