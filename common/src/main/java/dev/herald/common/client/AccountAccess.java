package dev.herald.common.client;

import dev.herald.common.wire.ProviderAccess;
import dev.herald.common.wire.TargetError;

/**
 * accounts-service's answer to "how may a delivery act on the account at its platform?"
 * ({@link AccountsClient#accessForDelivery}): the access, or the reason it cannot, as the target's error (a
 * disconnected account or revoked grant, not retryable; an account that needs re-authorization, {@code
 * account_reauth_required}, which delivery-worker holds rather than fails; a provider that could not refresh the token
 * now, retryable).
 */
public record AccountAccess(ProviderAccess access, TargetError refusal) {

    public static AccountAccess granted(ProviderAccess access) {
        return new AccountAccess(access, null);
    }

    public static AccountAccess refused(TargetError refusal) {
        return new AccountAccess(null, refusal);
    }

    public boolean granted() {
        return access != null;
    }
}
