package dev.herald.accounts.provider;

import java.time.Instant;
import java.util.Set;

/**
 * Tokens a provider issued. Secrets: never logged, encrypted at rest. {@code refreshToken},
 * {@code expiresAt} and {@code refreshExpiresAt} are null when the provider does not issue them.
 * {@code subject} is the provider's id for the authorizing user (open_id, sub, user id).
 */
public record ProviderGrant(String accessToken, String refreshToken, Instant expiresAt, Instant refreshExpiresAt,
                            Set<String> scopes, String subject) {
    @Override
    public String toString() {
        return "ProviderGrant[subject=" + subject + ", scopes=" + scopes + ", expiresAt=" + expiresAt + "]";
    }
}
