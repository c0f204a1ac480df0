package dev.herald.common.persistence;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A statement for the Vert.x pool written with {@code :name} placeholders, bound by name: a statement with thirty
 * parameters reads as what each one is, and a parameter used twice is bound once. The text is parsed once (hold it in
 * a {@code static final} field) into PostgreSQL's {@code $n} form; binding costs a map lookup per value.
 *
 * <p>Left alone: {@code ::} casts, {@code '...'} literals, {@code "..."} identifiers and comments. A name starts with a
 * letter or underscore. Positional {@code $n} placeholders are refused, so a statement is bound one way only.
 */
public final class NamedStatement {
    private final String sql;
    private final List<String> names;
    private final Map<String, Integer> positions;

    private NamedStatement(String sql, List<String> names) {
        this.sql = sql;
        this.names = List.copyOf(names);
        this.positions = new HashMap<>();
        for (int i = 0; i < names.size(); i++) {
            positions.put(names.get(i), i);
        }
    }

    /**
     * The answers of a statement that takes many calls as arrays ({@code unnest(...) with ordinality as i(...,
     * position)}) and returns a {@code position} column for each call it answers: per call, in order, {@code answer}
     * of the row naming it, or {@code otherwise} for a call no row names (one the statement did not change).
     */
    public static <O> List<O> answersByPosition(RowSet<Row> rows, int calls, Function<Row, O> answer, O otherwise) {
        List<O> answers = new ArrayList<>(Collections.nCopies(calls, otherwise));
        for (Row row : rows) {
            answers.set(row.getLong("position").intValue() - 1, answer.apply(row));
        }
        return answers;
    }

    /**
     * Parses {@code namedSql}; fails on a positional {@code $n} placeholder, an unterminated literal, or a text longer
     * than the client keeps prepared ({@link StatementCachingPoolCreator#SQL_LIMIT}).
     */
    public static NamedStatement of(String namedSql) {
        StringBuilder sql = new StringBuilder(namedSql.length());
        List<String> names = new ArrayList<>();
        int length = namedSql.length();
        int i = 0;
        while (i < length) {
            char c = namedSql.charAt(i);
            if (c == '\'' || c == '"') {
                int end = closing(namedSql, i, c);
                sql.append(namedSql, i, end);
                i = end;
            } else if (c == '-' && namedSql.startsWith("--", i)) {
                int end = namedSql.indexOf('\n', i);
                end = end < 0 ? length : end;
                sql.append(namedSql, i, end);
                i = end;
            } else if (c == '/' && namedSql.startsWith("/*", i)) {
                int end = namedSql.indexOf("*/", i + 2);
                if (end < 0) {
                    throw new IllegalArgumentException("unterminated comment in: " + namedSql);
                }
                sql.append(namedSql, i, end + 2);
                i = end + 2;
            } else if (c == ':' && i + 1 < length && namedSql.charAt(i + 1) == ':') {
                sql.append("::");
                i += 2;
            } else if (c == ':' && i + 1 < length && isNameStart(namedSql.charAt(i + 1))) {
                int end = i + 1;
                while (end < length && isNamePart(namedSql.charAt(end))) {
                    end++;
                }
                String name = namedSql.substring(i + 1, end);
                int position = names.indexOf(name);
                if (position < 0) {
                    names.add(name);
                    position = names.size() - 1;
                }
                sql.append('$').append(position + 1);
                i = end;
            } else if (c == '$' && i + 1 < length && Character.isDigit(namedSql.charAt(i + 1))) {
                throw new IllegalArgumentException("positional parameter in a named statement: " + namedSql);
            } else {
                sql.append(c);
                i++;
            }
        }
        if (sql.length() > StatementCachingPoolCreator.SQL_LIMIT) {
            // the client would not keep it prepared: planned anew at every execution
            throw new IllegalArgumentException("a statement of %d characters, over the %d the client keeps prepared: %s"
                    .formatted(sql.length(), StatementCachingPoolCreator.SQL_LIMIT, namedSql));
        }
        return new NamedStatement(sql.toString(), names);
    }

    /** The index just past the literal or quoted identifier opening at {@code start} (a doubled quote escapes). */
    private static int closing(String text, int start, char quote) {
        int i = start + 1;
        while (i < text.length()) {
            if (text.charAt(i) == quote) {
                if (i + 1 < text.length() && text.charAt(i + 1) == quote) {
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            i++;
        }
        throw new IllegalArgumentException("unterminated " + quote + " in: " + text);
    }

    private static boolean isNameStart(char c) {
        return Character.isLetter(c) || c == '_';
    }

    private static boolean isNamePart(char c) {
        return Character.isLetterOrDigit(c) || c == '_';
    }

    /** The statement as PostgreSQL takes it, with {@code $1}, {@code $2}... in order of each name's first use. */
    public String sql() {
        return sql;
    }

    /** The names, in the order of their positions. */
    public List<String> names() {
        return names;
    }

    /** Values for one execution, every name to be set. */
    public Parameters parameters() {
        return new Parameters();
    }

    /** The values of one execution; {@link #set} each name once, then {@link #execute} or take the {@link #tuple}. */
    public final class Parameters {
        private final Object[] values = new Object[names.size()];
        private final boolean[] set = new boolean[names.size()];

        private Parameters() {}

        /**
         * Binds {@code value} (null allowed) to {@code :name}; instants as UTC timestamptz, as {@link SqlParameters}
         * binds them. Fails on a name the statement does not have.
         */
        public Parameters set(String name, Object value) {
            Integer position = positions.get(name);
            if (position == null) {
                throw new IllegalArgumentException("no parameter :" + name + " in: " + sql);
            }
            values[position] = value instanceof Instant instant
                    ? SqlParameters.offset(instant)
                    : value instanceof Instant[] instants ? SqlParameters.offsets(instants) : value;
            set[position] = true;
            return this;
        }

        /** The values in position order; fails when a name was not set (a forgotten value is a bug, not a null). */
        public Tuple tuple() {
            Tuple tuple = Tuple.tuple();
            for (int i = 0; i < values.length; i++) {
                if (!set[i]) {
                    throw new IllegalStateException("parameter :" + names.get(i) + " not set for: " + sql);
                }
                tuple.addValue(values[i]);
            }
            return tuple;
        }

        /** Runs the statement with these values on {@code client} (the pool, or a connection in a transaction). */
        public Uni<RowSet<Row>> execute(SqlClient client) {
            Tuple tuple;
            try {
                tuple = tuple();
            } catch (IllegalStateException e) {
                return Uni.createFrom().failure(e);
            }
            return client.preparedQuery(sql).execute(tuple);
        }
    }
}
