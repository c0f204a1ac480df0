package dev.herald.accounts.service;

import dev.herald.common.wire.Platform;
import java.time.Duration;
import java.util.List;

/**
 * A validated {@code POST /connect-sessions} body; {@code platforms} is never empty (defaults applied).
 * {@code displayName}: the page's name for the customer instead of the branding's, or null. {@code locale} is a
 * normalized tag of a language the page speaks, or null.
 */
public record ConnectSessionRequest(
        String profileId,
        List<Platform> platforms,
        String redirectUrl,
        String embedOrigin,
        String displayName,
        Duration expiresIn,
        String locale) {}
