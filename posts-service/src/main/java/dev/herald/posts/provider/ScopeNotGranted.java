package dev.herald.posts.provider;

import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.wire.Platform;
import java.util.Map;

/**
 * The platform refused the call because the account's grant lacks the scope it needs (TikTok's
 * {@code scope_not_authorized}): a renewed token carries the same scopes, so only reconnecting the account helps.
 */
public class ScopeNotGranted extends ApiException {
    public ScopeNotGranted(Platform platform, ActingAccount account, String providerCode) {
        super(
                ErrorCode.PROVIDER_ERROR,
                platform.displayName() + " refused the call: the account's authorization does not"
                        + " grant the scope it needs (" + providerCode + "); reconnect the account to grant it.",
                Map.of(
                        "account_id",
                        account.access().accountId(),
                        "platform",
                        platform.wireName(),
                        "provider_code",
                        providerCode));
    }
}
