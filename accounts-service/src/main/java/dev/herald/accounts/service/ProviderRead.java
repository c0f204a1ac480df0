package dev.herald.accounts.service;

/**
 * What a platform read answered, and whether it came from the cache (a cached read is not metered: the
 * resource says so to the gateway with {@code x-herald-cache: hit}).
 */
public record ProviderRead<T>(T data, boolean cached) {
}
