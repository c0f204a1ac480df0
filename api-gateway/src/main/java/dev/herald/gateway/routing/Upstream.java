package dev.herald.gateway.routing;

/** The service that owns a route. */
public enum Upstream {
    PROFILES,
    ACCOUNTS,
    POSTS,
    WEBHOOKS,
    USAGE,
    /** mcp-server, behind {@code /mcp} (docs/mcp.md). */
    MCP,
    /** Served by the gateway itself. */
    GATEWAY
}
