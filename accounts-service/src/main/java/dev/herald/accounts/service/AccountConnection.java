package dev.herald.accounts.service;

import dev.herald.accounts.provider.ProviderGrant;
import dev.herald.common.auth.Mode;
import dev.herald.common.wire.Platform;

/**
 * One provider identity a customer authorized (in a connect session, or a sandbox account made through the
 * API). {@code externalId} is the provider's stable id for the identity; {@code grant} is null in test mode;
 * {@code profileId} and {@code connectSessionId} may be null.
 */
public record AccountConnection(
        String workspaceId,
        Mode mode,
        String profileId,
        Platform platform,
        String externalId,
        String name,
        String username,
        ProviderGrant grant,
        String connectSessionId) {}
