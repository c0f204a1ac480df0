package dev.herald.common.auth;

import java.util.Set;

/**
 * What the gateway vouches for when it calls a service: the authenticated workspace, mode, credential
 * and scopes. Services take tenancy only from a verified token, never from a bare header.
 */
public record InternalToken(String workspaceId, Mode mode, String keyId, Set<String> scopes) {
    public InternalToken {
        scopes = Set.copyOf(scopes);
    }

    public boolean hasScope(String scope) {
        return scopes.contains(scope);
    }
}
