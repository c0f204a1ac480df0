package dev.herald.accounts.provider.pinterest;

import static dev.herald.accounts.provider.http.TokenResponses.text;

import dev.herald.accounts.config.ProvidersConfig;
import dev.herald.accounts.provider.ProviderException;
import dev.herald.accounts.provider.ProviderGrant;
import dev.herald.accounts.provider.ProviderIdentity;
import dev.herald.accounts.provider.http.ConfiguredOAuthProvider;
import dev.herald.accounts.provider.http.ProviderCredentials;
import dev.herald.accounts.provider.http.ProviderErrors;
import dev.herald.accounts.provider.http.ProviderHttpClient;
import dev.herald.common.wire.Platform;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URI;
import java.util.List;
import java.util.Map;

/**
 * Pinterest API v5 OAuth (https://developers.pinterest.com/docs/getting-started/set-up-authentication-and-authorization/):
 * authorization at {@code www.pinterest.com/oauth/} with comma-separated scopes, code exchange and refresh at
 * {@code /v5/oauth/token} with the client id and secret as HTTP Basic credentials, asking for continuous refresh
 * (each refresh returns a new refresh token). The account is {@code GET /v5/user_account}. Pinterest documents no
 * token revocation endpoint, so {@link #revoke} does nothing. OAuth always runs against production; only the
 * board reads of trial apps use the sandbox host.
 */
@ApplicationScoped
public class PinterestOAuthProvider extends ConfiguredOAuthProvider {
    private final ProvidersConfig.Pinterest config;

    public PinterestOAuthProvider(ProvidersConfig config, ProviderHttpClient http) {
        super(Platform.PINTEREST, config.pinterest(), http);
        this.config = config.pinterest();
    }

    @Override
    public Uni<ProviderGrant> exchangeCode(String code, String codeVerifier, URI redirectUri) {
        return Uni.createFrom()
                .deferred(() -> requestToken(
                        tokenUrl(),
                        Map.of(
                                "grant_type",
                                "authorization_code",
                                "code",
                                code,
                                "redirect_uri",
                                redirectUri.toString(),
                                "continuous_refresh",
                                "true"),
                        basicAuth(),
                        null,
                        body -> null))
                .flatMap(grant -> account(grant.accessToken())
                        .map(account -> new ProviderGrant(
                                grant.accessToken(),
                                grant.refreshToken(),
                                grant.expiresAt(),
                                grant.refreshExpiresAt(),
                                grant.scopes(),
                                accountId(account))));
    }

    @Override
    public Uni<ProviderGrant> refresh(ProviderGrant grant) {
        return Uni.createFrom()
                .deferred(() -> refreshAt(
                        tokenUrl(),
                        basicAuth(),
                        grant,
                        refreshToken -> Map.of(
                                "grant_type",
                                "refresh_token",
                                "refresh_token",
                                refreshToken,
                                "continuous_refresh",
                                "true")));
    }

    @Override
    public Uni<Void> revoke(ProviderGrant grant) {
        return Uni.createFrom().voidItem();
    }

    @Override
    public Uni<List<ProviderIdentity>> identities(ProviderGrant grant) {
        return account(grant.accessToken()).map(account -> {
            String username = text(account, "username");
            String name = text(account, "business_name") != null ? text(account, "business_name") : username;
            return List.of(new ProviderIdentity(accountId(account), "pinterest_user", name, username, null));
        });
    }

    private Uni<JsonObject> account(String accessToken) {
        return http.get(config.apiUrl() + "/v5/user_account", Map.of(), ProviderHttpClient.bearer(accessToken))
                .map(PinterestApi::ok);
    }

    /** Newer v5 answers carry a numeric {@code id}; the username, also unique, stands in where it is missing. */
    private String accountId(JsonObject account) {
        String id = text(account, "id") != null ? text(account, "id") : text(account, "username");
        if (id == null) {
            throw ProviderErrors.malformed(platform(), "the account's id or username");
        }
        return id;
    }

    private String tokenUrl() {
        return config.apiUrl() + "/v5/oauth/token";
    }

    /** Pinterest wants the client's credentials as HTTP Basic, not in the form. */
    private Map<String, String> basicAuth() {
        ProviderCredentials credentials = credentials();
        return Map.of("Authorization", ProviderHttpClient.basic(credentials.clientId(), credentials.clientSecret()));
    }

    /**
     * The account read ({@code GET /v5/user_account}, scope {@code user_accounts:read}): 401 is a dead token, 403 a
     * scope the grant no longer has (both definitive), 429 and 5xx temporary; the answer must still be the account.
     */
    @Override
    public Uni<Void> check(ProviderGrant grant, String externalId) {
        return http.get(config.apiUrl() + "/v5/user_account", Map.of(), ProviderHttpClient.bearer(grant.accessToken()))
                .map(response -> {
                    if (response.status() == 403) {
                        ProviderException failure = PinterestApi.failure(response);
                        throw new ProviderException(failure.code(), failure.getMessage(), true, false);
                    }
                    JsonObject account = PinterestApi.ok(response);
                    if (!externalId.equals(text(account, "id")) && !externalId.equals(text(account, "username"))) {
                        throw ProviderErrors.identityGone(platform(), externalId);
                    }
                    return null;
                });
    }
}
