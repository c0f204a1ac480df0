package dev.herald.accounts.provider;

import dev.herald.common.wire.Platform;
import io.smallrye.mutiny.Uni;
import java.net.URI;
import java.util.List;

/**
 * One platform's OAuth 2.0 authorization-code grant, as the hosted connect pages and token refresh use it.
 * Implementations call the provider's documented endpoints at configurable base URLs; test mode never
 * reaches a provider (it is simulated by the connect pages themselves).
 */
public interface OAuthProvider {
    Platform platform();

    /**
     * Whether the operator gave this platform's client credentials. An unconfigured provider refuses every
     * call with {@code provider_not_configured}; the service still starts, and test mode never needs one.
     */
    default boolean configured() {
        return true;
    }

    /** Whether the provider accepts PKCE (RFC 7636, S256); when false the request carries no challenge. */
    boolean supportsPkce();

    /** Where the customer's browser goes to authorize Herald. */
    URI authorizationUrl(AuthorizationRequest request);

    /** Trades the callback's code for a grant. A provider refusal fails with {@link ProviderException}. */
    Uni<ProviderGrant> exchangeCode(String code, String codeVerifier, URI redirectUri);

    /** A fresh grant from the refresh token; fails with {@link ProviderException} when the grant is revoked. */
    Uni<ProviderGrant> refresh(ProviderGrant grant);

    /** Asks the provider to revoke the grant (YouTube disconnects must; others where documented). */
    Uni<Void> revoke(ProviderGrant grant);

    /**
     * The publishable identities behind a grant: the TikTok creator, the YouTube channel(s), the Facebook
     * Pages, the Instagram professional accounts, the Pinterest account, the LinkedIn member and the
     * organizations it administers. Each becomes one Herald account.
     */
    Uni<List<ProviderIdentity>> identities(ProviderGrant grant);

    /**
     * The health check: a cheap documented read proving the grant still works for the identity {@code externalId}
     * and still carries the permissions Herald publishes with. A definitive refusal (token invalid or revoked,
     * permission removed, identity gone) fails with a {@link ProviderException} that is {@code revoked}, carrying the
     * platform's own code; a temporary one (5xx, 429, timeout, network) with one that is {@code retryable}.
     */
    Uni<Void> check(ProviderGrant grant, String externalId);
}
