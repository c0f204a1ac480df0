package dev.herald.common.paging;

import dev.herald.common.api.ApiException;
import java.util.Optional;

/** A validated page request: {@code limit} 1 to 100 (default 50) and, past the first page, a position. */
public record PageRequest(int limit, Optional<CursorPosition> after) {
    public static final int DEFAULT_LIMIT = 50;
    public static final int MAX_LIMIT = 100;

    /**
     * Validates the raw query values. {@code limit} arrives as text so a wrong type is our error to word,
     * not the framework's.
     */
    public static PageRequest parse(String limit, String cursor, CursorScope scope, CursorCodec codec) {
        return new PageRequest(parseLimit(limit), parseCursor(cursor, scope, codec));
    }

    static int parseLimit(String limit) {
        if (limit == null) {
            return DEFAULT_LIMIT;
        }
        if (limit.isEmpty()) {
            throw emptyParameter("limit");
        }
        // ASCII digits only: Integer.parseInt also reads "+5", "\uff15" (fullwidth) and "\u0665" (Arabic-Indic).
        if (!limit.matches("[0-9]{1,9}")) {
            throw ApiException.invalidParameter("limit", "limit must be an integer from 1 to " + MAX_LIMIT + ".");
        }
        int value = Integer.parseInt(limit);
        if (value < 1 || value > MAX_LIMIT) {
            throw ApiException.invalidParameter("limit", "limit must be an integer from 1 to " + MAX_LIMIT + ".");
        }
        return value;
    }

    private static Optional<CursorPosition> parseCursor(String cursor, CursorScope scope, CursorCodec codec) {
        if (cursor == null) {
            return Optional.empty();
        }
        if (cursor.isEmpty()) {
            throw emptyParameter("cursor");
        }
        if (cursor.length() > CursorCodec.MAX_LENGTH) {
            throw ApiException.invalidParameter(
                    "cursor", "cursor must be at most " + CursorCodec.MAX_LENGTH + " characters.");
        }
        return Optional.of(codec.decode(scope, cursor));
    }

    /** A paging parameter sent without a value: absent means the default, empty is a mistake worth naming. */
    static ApiException emptyParameter(String parameter) {
        return ApiException.invalidParameter(
                parameter,
                "limit".equals(parameter)
                        ? "limit must be an integer from 1 to " + MAX_LIMIT + "; leave it out for the default of "
                                + DEFAULT_LIMIT + "."
                        : "cursor must not be empty; leave it out for the first page.");
    }

    /** How many rows to fetch: one more than the page, so {@code has_more} is known without a count. */
    public int fetchSize() {
        return limit + 1;
    }
}
