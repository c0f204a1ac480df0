package dev.herald.accounts.provider;

import java.time.Instant;
import java.util.Set;

/**
 * Tokens a provider issued. Secrets: never logged, encrypted at rest. {@code refreshToken},
 * {@code expiresAt} and {@code refreshExpiresAt} are null when the provider does not issue them.
 * {@code subject} is the provider's id for the authorizing user (open_id, sub, user id).
 */
public record ProviderGrant(
        String accessToken,
        String refreshToken,
        Instant expiresAt,
        Instant refreshExpiresAt,
        Set<String> scopes,
        String subject) {
    /**
     * The grant {@code identity} acts with: its own token where the platform issues one per identity, else this one. A
     * Facebook Page publishes only with its Page token (Graph answers the user's token 403 on the Page's edges); a Page
     * token got from a long-lived user token does not expire and has no refresh token, and dies with the user's grant.
     */
    public ProviderGrant forIdentity(ProviderIdentity identity) {
        if (identity.accessToken() == null) {
            return this;
        }
        return new ProviderGrant(identity.accessToken(), null, null, null, scopes, subject);
    }

    @Override
    public String toString() {
        return "ProviderGrant[subject=" + subject + ", scopes=" + scopes + ", expiresAt=" + expiresAt + "]";
    }
}
