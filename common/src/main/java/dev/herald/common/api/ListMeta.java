package dev.herald.common.api;

import com.fasterxml.jackson.annotation.JsonInclude;

/** Pagination state of a list; {@code next_cursor} is null exactly when {@code has_more} is false. */
public record ListMeta(
        @JsonInclude(JsonInclude.Include.ALWAYS) String nextCursor, boolean hasMore) {}
