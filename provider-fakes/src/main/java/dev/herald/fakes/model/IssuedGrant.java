package dev.herald.fakes.model;

import java.time.Instant;
import java.util.Set;

/**
 * What a fake platform knows about a token it issued.
 *
 * @param subject     the user (or Page) the token acts for
 * @param grantId     shared by every access and refresh token of one authorization, so revoking one revokes all
 * @param expiresAt   null when the token does not expire
 */
public record IssuedGrant(
        String platform, String grantId, String subject, Set<String> scopes, Instant expiresAt, boolean refreshToken) {

    public boolean expired(Instant now) {
        return expiresAt != null && !now.isBefore(expiresAt);
    }

    public IssuedGrant withoutScope(String scope) {
        Set<String> kept = new java.util.HashSet<>(scopes);
        kept.remove(scope);
        return new IssuedGrant(platform, grantId, subject, Set.copyOf(kept), expiresAt, refreshToken);
    }

    public IssuedGrant expiringAt(Instant when) {
        return new IssuedGrant(platform, grantId, subject, scopes, when, refreshToken);
    }
}
