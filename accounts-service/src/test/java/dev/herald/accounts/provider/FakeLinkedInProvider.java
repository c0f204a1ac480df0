package dev.herald.accounts.provider;

import dev.herald.common.wire.Platform;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Singleton;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A LinkedIn provider for connect-page tests: its authorization URL carries what it was asked (state, PKCE
 * challenge, callback), code {@code good} grants a member and one organization, anything else is refused.
 * It remembers the last verifier and callback it was given, so tests can check the PKCE and callback binding.
 * Not an alternative: providers are picked by platform from all OAuthProvider beans, and an enabled
 * alternative would hide every other provider from {@code Instance<OAuthProvider>}; being configured, it wins
 * over the built-in LinkedIn provider in {@link OAuthProviders}.
 * <p>
 * Refreshing answers a new access token ({@code <old>~r<n>}, valid an hour, the refresh token rotated) after
 * {@link #refreshDelayMillis}, or fails with {@link #refreshFailure} when set; {@link #refreshes} counts the calls.
 * <p>
 * The health check fails with {@link #checkFailure} when set, and refuses the tokens in {@link #refusedTokens} (ended
 * early by the platform) as revoked; it answers after {@link #checkDelayMillis} and counts its calls per identity in
 * {@link #checks}, the token it was shown last in {@link #lastCheckedToken}.
 */
@Singleton
public class FakeLinkedInProvider implements OAuthProvider {
    private final AtomicReference<String> lastVerifier = new AtomicReference<>();
    private final AtomicReference<URI> lastRedirectUri = new AtomicReference<>();
    public final AtomicInteger refreshes = new AtomicInteger();
    public volatile ProviderException refreshFailure;
    public volatile long refreshDelayMillis;
    /** Refresh as LinkedIn does without a refresh token: the unexpired grant comes back as it is. */
    public volatile boolean keepTokens;

    public volatile ProviderException checkFailure;
    public final Set<String> refusedTokens = ConcurrentHashMap.newKeySet();
    public final Map<String, AtomicInteger> checks = new ConcurrentHashMap<>();
    public final AtomicReference<String> lastCheckedToken = new AtomicReference<>();
    public volatile long checkDelayMillis;

    /** How many times the identity was checked. */
    public int checksOf(String externalId) {
        AtomicInteger count = checks.get(externalId);
        return count == null ? 0 : count.get();
    }

    /** Back to answering every check at once. */
    public void checksPass() {
        checkFailure = null;
        refusedTokens.clear();
        checkDelayMillis = 0;
    }

    public String lastVerifier() {
        return lastVerifier.get();
    }

    public URI lastRedirectUri() {
        return lastRedirectUri.get();
    }

    @Override
    public Platform platform() {
        return Platform.LINKEDIN;
    }

    @Override
    public boolean supportsPkce() {
        return true;
    }

    @Override
    public URI authorizationUrl(AuthorizationRequest request) {
        return URI.create("https://linkedin.example/oauth/authorize?state=" + request.state() + "&code_challenge="
                + request.codeChallenge() + "&redirect_uri=" + request.redirectUri());
    }

    @Override
    public Uni<ProviderGrant> exchangeCode(String code, String codeVerifier, URI redirectUri) {
        lastVerifier.set(codeVerifier);
        lastRedirectUri.set(redirectUri);
        if (!"good".equals(code)) {
            return Uni.createFrom().failure(new ProviderException("invalid_grant", "bad code", false, false));
        }
        return Uni.createFrom()
                .item(new ProviderGrant(
                        "access-" + code,
                        "refresh-" + code,
                        Instant.now().plusSeconds(3600),
                        null,
                        Set.of("w_member_social"),
                        "member-1"));
    }

    @Override
    public Uni<ProviderGrant> refresh(ProviderGrant grant) {
        int n = refreshes.incrementAndGet();
        ProviderException failure = refreshFailure;
        Uni<ProviderGrant> answer = failure != null
                ? Uni.createFrom().failure(failure)
                : keepTokens
                        ? Uni.createFrom().item(grant)
                        : Uni.createFrom()
                                .item(new ProviderGrant(
                                        grant.accessToken() + "~r" + n,
                                        grant.refreshToken() + "~r" + n,
                                        Instant.now().plusSeconds(3600),
                                        // A rotated refresh token lasts a year from now, when the old one had an end.
                                        grant.refreshExpiresAt() == null
                                                ? null
                                                : Instant.now().plus(java.time.Duration.ofDays(365)),
                                        grant.scopes(),
                                        grant.subject()));
        long delay = refreshDelayMillis;
        if (delay <= 0) {
            return answer;
        }
        // A timer on the caller's Vert.x context, so the answer comes back on it, as the real web client's does.
        return Uni.createFrom()
                .<Void>emitter(emitter ->
                        io.vertx.core.Vertx.currentContext().owner().setTimer(delay, id -> emitter.complete(null)))
                .flatMap(waited -> answer);
    }

    @Override
    public Uni<Void> revoke(ProviderGrant grant) {
        return Uni.createFrom().voidItem();
    }

    @Override
    public Uni<List<ProviderIdentity>> identities(ProviderGrant grant) {
        return Uni.createFrom()
                .item(List.of(
                        new ProviderIdentity("urn:li:person:member-1", "member", "Mia Member", "mia", null),
                        new ProviderIdentity("urn:li:organization:42", "organization", "Acme Corp", "acme", null)));
    }

    @Override
    public Uni<Void> check(ProviderGrant grant, String externalId) {
        checks.computeIfAbsent(externalId, id -> new AtomicInteger()).incrementAndGet();
        lastCheckedToken.set(grant.accessToken());
        ProviderException failure = checkFailure;
        if (failure == null && refusedTokens.contains(grant.accessToken())) {
            failure = new ProviderException(
                    "token_expired", "linkedin refused: token_expired - the access token is expired", true, false);
        }
        Uni<Void> answer =
                failure == null ? Uni.createFrom().voidItem() : Uni.createFrom().failure(failure);
        long delay = checkDelayMillis;
        if (delay <= 0) {
            return answer;
        }
        return Uni.createFrom()
                .<Void>emitter(emitter ->
                        io.vertx.core.Vertx.currentContext().owner().setTimer(delay, id -> emitter.complete(null)))
                .flatMap(waited -> answer);
    }
}
