package dev.herald.common.wire;

import java.time.Instant;

/**
 * accounts-service's {@code POST /internal/accounts/{id}/access-token}: what a publisher needs to act on a live
 * account at its platform. {@code externalId} is the provider's id of the identity (LinkedIn's person or
 * organization URN, the Page id, the channel id, ...); {@code expiresAt} is null when the provider does not say.
 * The access token is a secret: never logged (see {@link #toString()}), never stored outside accounts-service.
 */
public record ProviderAccess(
        String accountId, Platform platform, String externalId, String accessToken, Instant expiresAt) {

    /** The request body: {@code rejectedTokenSha256} names the token the platform just refused (hex SHA-256), if any. */
    public record Request(String rejectedTokenSha256) {}

    @Override
    public String toString() {
        return "ProviderAccess[accountId=" + accountId + ", platform=" + platform + ", externalId=" + externalId
                + ", expiresAt=" + expiresAt + "]";
    }
}
