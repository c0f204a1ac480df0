package dev.herald.posts.provider;

import dev.herald.common.wire.ProviderAccess;

/**
 * The live account a comment call acts as: its provider access (token and the identity's external id)
 * and its name and username as Herald shows them, which replies posted through Herald carry.
 */
public record ActingAccount(ProviderAccess access, String name, String username) {

    public String bearer() {
        return "Bearer " + access.accessToken();
    }

    /** The same account with the access accounts-service handed out after the platform refused the last one. */
    public ActingAccount with(ProviderAccess renewed) {
        return new ActingAccount(renewed, name, username);
    }
}
