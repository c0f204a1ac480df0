package dev.herald.accounts.provider.http;

import dev.herald.accounts.config.ProvidersConfig;
import dev.herald.accounts.provider.AuthorizationRequest;
import dev.herald.accounts.provider.OAuthProvider;
import dev.herald.accounts.provider.ProviderGrant;
import dev.herald.common.wire.Platform;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * What every live platform shares: its configured OAuth client, the authorization URL of the code grant
 * (RFC 6749 section 4.1.1: client id, redirect URI, {@code response_type=code}, scope, state, and the PKCE
 * challenge where the platform accepts one) and the refusal of an unconfigured client. Platforms differ in
 * the name of the client id parameter, the scope separator and extra parameters.
 */
public abstract class ConfiguredOAuthProvider implements OAuthProvider {
    // Not final: ArC proxies the application-scoped subclasses through the no-args constructor below.
    private Platform platform;
    private ProvidersConfig.OAuthClient client;
    protected ProviderHttpClient http;

    /** For client proxies only. */
    protected ConfiguredOAuthProvider() {}

    protected ConfiguredOAuthProvider(Platform platform, ProvidersConfig.OAuthClient client, ProviderHttpClient http) {
        this.platform = platform;
        this.client = client;
        this.http = http;
    }

    @Override
    public Platform platform() {
        return platform;
    }

    @Override
    public boolean supportsPkce() {
        return false;
    }

    @Override
    public URI authorizationUrl(AuthorizationRequest request) {
        AuthorizationUrl url = AuthorizationUrl.at(client.authorizeUrl())
                .with(clientIdParameter(), credentials().clientId())
                .with("redirect_uri", request.redirectUri().toString())
                .with("response_type", "code")
                .with("scope", String.join(scopeSeparator(), client.scopes()))
                .with("state", request.state());
        if (supportsPkce() && request.codeChallenge() != null) {
            url.with("code_challenge", request.codeChallenge()).with("code_challenge_method", "S256");
        }
        return withPlatformParameters(url).build();
    }

    /** The client id's parameter name in the authorization URL. */
    protected String clientIdParameter() {
        return "client_id";
    }

    protected String scopeSeparator() {
        return ",";
    }

    protected AuthorizationUrl withPlatformParameters(AuthorizationUrl url) {
        return url;
    }

    /**
     * The code grant's token request (RFC 6749 section 4.1.3) with the client's credentials in the body; the
     * PKCE verifier is left out when null.
     */
    protected Map<String, String> codeForm(String code, String codeVerifier, URI redirectUri) {
        ProviderCredentials credentials = credentials();
        Map<String, String> form = new HashMap<>();
        form.put(clientIdParameter(), credentials.clientId());
        form.put("client_secret", credentials.clientSecret());
        form.put("grant_type", "authorization_code");
        form.put("code", code);
        form.put("redirect_uri", redirectUri.toString());
        form.put("code_verifier", codeVerifier);
        return form;
    }

    /** The refresh request (RFC 6749 section 6) with the client's credentials in the body. */
    protected Map<String, String> refreshForm(String refreshToken) {
        ProviderCredentials credentials = credentials();
        return Map.of(
                clientIdParameter(),
                credentials.clientId(),
                "client_secret",
                credentials.clientSecret(),
                "grant_type",
                "refresh_token",
                "refresh_token",
                refreshToken);
    }

    /**
     * Posts a token request and reads the grant; {@code subject} picks the user's id out of the answer (null
     * when it has none). {@code previous} is the grant being refreshed, null for a code exchange. An answer
     * without an access token is a refusal whatever its status: TikTok refuses with 200 and an error body.
     */
    protected Uni<ProviderGrant> requestToken(
            String url,
            Map<String, String> form,
            Map<String, String> headers,
            ProviderGrant previous,
            Function<JsonObject, String> subject) {
        return http.postForm(url, form, headers).map(response -> {
            JsonObject body = response.json();
            if (!response.ok() || TokenResponses.text(body, "access_token") == null) {
                throw ProviderErrors.oauth(platform, response, previous != null);
            }
            return TokenResponses.grant(platform, body, subject.apply(body), previous);
        });
    }

    /** Refreshes with the grant's refresh token, or keeps a grant that has none while it is unexpired. */
    protected Uni<ProviderGrant> refreshAt(
            String url, Map<String, String> headers, ProviderGrant grant, Function<String, Map<String, String>> form) {
        return Uni.createFrom().deferred(() -> {
            credentials();
            if (grant.refreshToken() == null) {
                return TokenResponses.withoutRefreshToken(platform, grant);
            }
            return requestToken(url, form.apply(grant.refreshToken()), headers, grant, body -> null);
        });
    }

    @Override
    public boolean configured() {
        return ProviderCredentials.present(client.clientId(), client.clientSecret());
    }

    /** The client id and secret, or {@code provider_not_configured}. */
    protected ProviderCredentials credentials() {
        return ProviderCredentials.require(platform, client.clientId(), client.clientSecret());
    }
}
