package dev.herald.accounts.provider;

/**
 * One publishable identity behind a grant. {@code externalId} is the provider's id for it (stable across
 * reconnections, so a reconnect finds the same Herald account); {@code kind} names what it is ("creator",
 * "channel", "page", "instagram_business", "pinterest_user", "member", "organization"). {@code accessToken}
 * is set only where the provider issues a token per identity (Facebook Page tokens); a secret.
 */
public record ProviderIdentity(String externalId, String kind, String name, String username, String accessToken) {
    @Override
    public String toString() {
        return "ProviderIdentity[externalId=" + externalId + ", kind=" + kind + ", username=" + username + "]";
    }
}
