package dev.herald.gateway.routing;

/** The service that owns a route. */
public enum Upstream {
    PROFILES,
    ACCOUNTS,
    POSTS,
    WEBHOOKS,
    USAGE,
    /** Served by the gateway itself. */
    GATEWAY
}
