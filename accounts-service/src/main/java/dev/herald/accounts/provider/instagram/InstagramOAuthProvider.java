package dev.herald.accounts.provider.instagram;

import static dev.herald.accounts.provider.http.TokenResponses.text;

import dev.herald.accounts.config.ProvidersConfig;
import dev.herald.accounts.provider.ProviderException;
import dev.herald.accounts.provider.ProviderGrant;
import dev.herald.accounts.provider.ProviderIdentity;
import dev.herald.accounts.provider.facebook.GraphApiErrors;
import dev.herald.accounts.provider.http.ConfiguredOAuthProvider;
import dev.herald.accounts.provider.http.ProviderCredentials;
import dev.herald.accounts.provider.http.ProviderErrors;
import dev.herald.accounts.provider.http.ProviderHttpClient;
import dev.herald.accounts.provider.http.ProviderResponse;
import dev.herald.accounts.provider.http.TokenResponses;
import dev.herald.common.wire.Platform;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URI;
import java.util.List;
import java.util.Map;

/**
 * Instagram professional accounts through the Instagram API with Instagram Login ("Business Login for
 * Instagram", https://developers.facebook.com/docs/instagram-platform/instagram-api-with-instagram-login/business-login),
 * chosen over Facebook Login's {@code instagram_business_account} because creators need no Facebook Page:
 * authorization at {@code www.instagram.com/oauth/authorize}, the code exchanged at
 * {@code api.instagram.com/oauth/access_token} for a short-lived token, then swapped at
 * {@code graph.instagram.com/access_token} ({@code ig_exchange_token}) for a 60-day token that
 * {@code /refresh_access_token} ({@code ig_refresh_token}) renews; there is no refresh token. The account is read
 * from {@code /<version>/me} ({@code user_id} is the professional account id used for publishing). The API
 * documents no token revocation: the user removes the app in Instagram's settings, so {@link #revoke} does nothing.
 */
@ApplicationScoped
public class InstagramOAuthProvider extends ConfiguredOAuthProvider {
    private final ProvidersConfig.Instagram config;

    public InstagramOAuthProvider(ProvidersConfig config, ProviderHttpClient http) {
        super(Platform.INSTAGRAM, config.instagram(), http);
        this.config = config.instagram();
    }

    @Override
    public Uni<ProviderGrant> exchangeCode(String code, String codeVerifier, URI redirectUri) {
        return Uni.createFrom().deferred(() -> {
            ProviderCredentials credentials = credentials();
            return http.postForm(config.oauthUrl() + "/oauth/access_token", codeForm(code, null, redirectUri), Map.of())
                    .map(this::shortLivedToken)
                    .flatMap(shortLived -> http.get(
                                    config.apiUrl() + "/access_token",
                                    Map.of(
                                            "grant_type",
                                            "ig_exchange_token",
                                            "client_secret",
                                            credentials.clientSecret(),
                                            "access_token",
                                            text(shortLived, "access_token")),
                                    Map.of())
                            .map(response -> TokenResponses.grant(
                                    platform(),
                                    ok(response).copy().put("scope", shortLived.getValue("permissions")),
                                    text(shortLived, "user_id"),
                                    null)));
        });
    }

    /** Renews the long-lived token itself (Instagram allows it once the token is a day old and unexpired). */
    @Override
    public Uni<ProviderGrant> refresh(ProviderGrant grant) {
        return http.get(
                        config.apiUrl() + "/refresh_access_token",
                        Map.of("grant_type", "ig_refresh_token", "access_token", grant.accessToken()),
                        Map.of())
                .map(response -> {
                    if (!response.ok()) {
                        ProviderException failure = GraphApiErrors.of(platform(), response);
                        // An unusable long-lived token cannot be renewed by anything but a new login.
                        throw failure.retryable() || failure.revoked()
                                ? failure
                                : new ProviderException(failure.code(), failure.getMessage(), true, false);
                    }
                    return TokenResponses.grant(platform(), response.json(), null, grant);
                });
    }

    @Override
    public Uni<Void> revoke(ProviderGrant grant) {
        return Uni.createFrom().voidItem();
    }

    @Override
    public Uni<List<ProviderIdentity>> identities(ProviderGrant grant) {
        return http.get(
                        config.apiUrl() + "/" + config.apiVersion() + "/me",
                        // Instagram's reference passes the token as a query parameter, as here.
                        Map.of("fields", "id,user_id,username,name,account_type", "access_token", grant.accessToken()),
                        Map.of())
                .map(response -> {
                    JsonObject me = ok(response);
                    String id = text(me, "user_id") != null ? text(me, "user_id") : text(me, "id");
                    if (id == null) {
                        throw ProviderErrors.malformed(platform(), "the account's user_id");
                    }
                    return List.of(new ProviderIdentity(
                            id, "instagram_business", text(me, "name"), text(me, "username"), null));
                });
    }

    /** The code exchange answers {@code {access_token, user_id, permissions}}, older versions inside {@code data[0]}. */
    private JsonObject shortLivedToken(ProviderResponse response) {
        JsonObject body = ok(response);
        if (body.getValue("data") instanceof JsonArray data
                && !data.isEmpty()
                && data.getValue(0) instanceof JsonObject first) {
            body = first;
        }
        if (text(body, "access_token") == null) {
            throw ProviderErrors.malformed(platform(), "an access_token");
        }
        return body;
    }

    private JsonObject ok(ProviderResponse response) {
        if (!response.ok()) {
            throw GraphApiErrors.of(platform(), response);
        }
        return response.json();
    }

    /**
     * The account's content publishing limit ({@code GET /<IG_ID>/content_publishing_limit},
     * https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/content_publishing_limit):
     * a read that needs {@code instagram_business_content_publish}, so a dead token answers 190 and a withdrawn
     * publishing permission 10 or 200-299, both definitive in {@link GraphApiErrors}.
     */
    @Override
    public Uni<Void> check(ProviderGrant grant, String externalId) {
        return http.get(
                        config.apiUrl() + "/" + config.apiVersion() + "/" + externalId + "/content_publishing_limit",
                        Map.of("fields", "quota_usage", "access_token", grant.accessToken()),
                        Map.of())
                .map(response -> {
                    ok(response);
                    return null;
                });
    }
}
