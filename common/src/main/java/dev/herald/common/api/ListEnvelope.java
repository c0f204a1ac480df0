package dev.herald.common.api;

import java.util.List;

/** {@code { data: [<resource>], meta: { next_cursor, has_more } }}: the body of every list response. */
public record ListEnvelope<T>(List<T> data, ListMeta meta) {}
