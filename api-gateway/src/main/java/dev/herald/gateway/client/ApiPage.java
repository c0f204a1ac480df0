package dev.herald.gateway.client;

import java.util.List;

/**
 * One page of an API list ({@code { data: [...], meta: { next_cursor, has_more } }}) as wire records;
 * {@code nextCursor} is null on the last page.
 */
public record ApiPage<T>(List<T> items, String nextCursor) {}
