package dev.herald.mcp.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.net.URI;
import java.time.Duration;

/** Where the MCP server finds the public API it calls for every tool, and how long it waits for an answer. */
@ConfigMapping(prefix = "herald.mcp")
public interface McpServerConfig {
    /**
     * The gateway's base URL (no {@code /api/v1}): the tools call the public API there, with the caller's own key, so
     * that authentication, scopes, rate limits and metering apply to them as to any integrator's request.
     */
    URI gatewayUrl();

    /** A gateway that does not answer within this time makes the tool call fail with {@code service_unavailable}. */
    @WithDefault("PT30S")
    Duration gatewayTimeout();
}
