package dev.herald.usage.catalog;

/**
 * What one plan allows in one mode. Monthly allowances are null when unlimited (test mode's media,
 * comment requests and new connections).
 */
public record Allowances(
        long connectedAccounts,
        long publications,
        Long mediaBytes,
        long apiRequests,
        Long commentRequests,
        int requestsPerMinute,
        int concurrentIngests,
        Long newConnections) {}
