package dev.herald.gateway.service;

import dev.herald.common.auth.Mode;
import java.util.Set;

/**
 * Who is calling the public API, however they proved it: an API key or an OAuth access token. Everything
 * after authentication (scopes, rate limits, metering, logs, the internal JWT) works on this alone.
 */
public record Credential(String id, String workspaceId, Mode mode, Set<String> scopes) {
    public Credential {
        scopes = Set.copyOf(scopes);
    }
}
