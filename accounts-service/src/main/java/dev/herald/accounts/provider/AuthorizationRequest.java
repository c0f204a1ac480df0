package dev.herald.accounts.provider;

import java.net.URI;

/**
 * What an authorization URL binds: the opaque {@code state} (tied to the connect session and the browser),
 * the PKCE S256 challenge (null when the provider does not support PKCE) and the exact callback URI.
 */
public record AuthorizationRequest(String state, String codeChallenge, URI redirectUri) {}
