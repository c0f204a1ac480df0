package dev.herald.gateway.service;

/** The {@code X-RateLimit-*} values of one request: its window's limit, what is left, and when it resets. */
public record RateLimitStatus(int limit, int remaining, long resetEpochSeconds) {}
