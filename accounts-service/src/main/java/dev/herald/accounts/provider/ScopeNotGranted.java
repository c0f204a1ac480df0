package dev.herald.accounts.provider;

import dev.herald.common.wire.Platform;

/**
 * The platform refused a call because the account's grant lacks the scope it needs (TikTok's
 * {@code scope_not_authorized}): neither revoked nor worth retrying, and a renewed token would carry the same scopes.
 * Only a new authorization grants it.
 */
public class ScopeNotGranted extends ProviderException {
    public ScopeNotGranted(Platform platform, String scope) {
        super(
                "scope_not_authorized",
                platform.displayName() + " needs the " + scope
                        + " scope, which the account's authorization does not grant; reconnect the account to grant it.",
                false,
                false);
    }
}
