package dev.herald.accounts.provider;

import java.util.List;

/** One page of a provider's list; {@code nextBookmark} is the provider's own cursor, null on the last page. */
public record ProviderPage<T>(List<T> items, String nextBookmark) {}
