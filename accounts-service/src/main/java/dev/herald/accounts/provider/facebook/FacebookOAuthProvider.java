package dev.herald.accounts.provider.facebook;

import static dev.herald.accounts.provider.http.TokenResponses.text;

import dev.herald.accounts.config.ProvidersConfig;
import dev.herald.accounts.provider.ProviderException;
import dev.herald.accounts.provider.ProviderGrant;
import dev.herald.accounts.provider.ProviderIdentity;
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
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Facebook Pages through Facebook Login's manual flow
 * (https://developers.facebook.com/docs/facebook-login/guides/advanced/manual-flow): the dialog at
 * {@code /dialog/oauth}, the code exchanged at Graph {@code /oauth/access_token}, then swapped for a long-lived
 * user token (https://developers.facebook.com/docs/facebook-login/guides/access-tokens/get-long-lived). The
 * Pages come from {@code /me/accounts} with their Page tokens, which do not expire when obtained from a
 * long-lived user token (https://developers.facebook.com/docs/pages-api/getting-started). Meta issues no refresh
 * tokens; revocation is {@code DELETE /me/permissions}
 * (https://developers.facebook.com/docs/facebook-login/guides/permissions/request-revoke).
 */
@ApplicationScoped
public class FacebookOAuthProvider extends ConfiguredOAuthProvider {
    /** Pages are listed 100 at a time; ten pages of Pages is beyond any real user and bounds the calls. */
    private static final int MAX_PAGE_REQUESTS = 10;

    /** What Herald publishes to a Page with (Graph's Pages API: posting needs both). */
    static final List<String> PUBLISHING_PERMISSIONS = List.of("pages_manage_posts", "pages_read_engagement");

    private final ProvidersConfig.Facebook config;

    public FacebookOAuthProvider(ProvidersConfig config, ProviderHttpClient http) {
        super(Platform.FACEBOOK, config.facebook(), http);
        this.config = config.facebook();
    }

    @Override
    public Uni<ProviderGrant> exchangeCode(String code, String codeVerifier, URI redirectUri) {
        return Uni.createFrom().deferred(() -> {
            ProviderCredentials credentials = credentials();
            return http.get(
                            config.apiUrl() + "/oauth/access_token",
                            Map.of(
                                    "client_id",
                                    credentials.clientId(),
                                    "client_secret",
                                    credentials.clientSecret(),
                                    "redirect_uri",
                                    redirectUri.toString(),
                                    "code",
                                    code),
                            Map.of())
                    .map(this::tokenBody)
                    .flatMap(shortLived -> http.get(
                            config.apiUrl() + "/oauth/access_token",
                            Map.of(
                                    "grant_type",
                                    "fb_exchange_token",
                                    "client_id",
                                    credentials.clientId(),
                                    "client_secret",
                                    credentials.clientSecret(),
                                    "fb_exchange_token",
                                    text(shortLived, "access_token")),
                            Map.of()))
                    .map(this::tokenBody)
                    .flatMap(longLived -> whoGranted(text(longLived, "access_token"))
                            .map(me -> TokenResponses.grant(
                                    platform(),
                                    longLived.copy().put("scope", grantedPermissions(me)),
                                    text(me, "id"),
                                    null)));
        });
    }

    @Override
    public Uni<ProviderGrant> refresh(ProviderGrant grant) {
        return TokenResponses.withoutRefreshToken(platform(), grant);
    }

    /** Removes every permission the user granted; a token already invalid has nothing left to revoke. */
    @Override
    public Uni<Void> revoke(ProviderGrant grant) {
        return http.delete(
                        config.apiUrl() + "/me/permissions", Map.of(), ProviderHttpClient.bearer(grant.accessToken()))
                .map(response -> {
                    if (response.ok() || GraphApiErrors.tokenAlreadyInvalid(response)) {
                        return null;
                    }
                    throw GraphApiErrors.of(platform(), response);
                });
    }

    @Override
    public Uni<List<ProviderIdentity>> identities(ProviderGrant grant) {
        return pages(
                config.apiUrl() + "/me/accounts",
                Map.of("fields", "id,name,username,access_token", "limit", "100"),
                grant.accessToken(),
                new ArrayList<>(),
                0);
    }

    private Uni<List<ProviderIdentity>> pages(
            String url, Map<String, String> query, String accessToken, List<ProviderIdentity> found, int requests) {
        return http.get(url, query, ProviderHttpClient.bearer(accessToken)).flatMap(response -> {
            JsonObject body = ok(response);
            JsonArray data = body.getJsonArray("data", new JsonArray());
            for (int i = 0; i < data.size(); i++) {
                JsonObject page = data.getJsonObject(i);
                found.add(new ProviderIdentity(
                        text(page, "id"),
                        "page",
                        text(page, "name"),
                        text(page, "username"),
                        text(page, "access_token")));
            }
            // paging.next is a complete URL (cursor included); it is followed only on Graph's own origin, since
            // the request carries the user's token.
            String next = body.getJsonObject("paging", new JsonObject()).getString("next");
            if (next == null
                    || data.isEmpty()
                    || requests + 1 >= MAX_PAGE_REQUESTS
                    || !sameOrigin(next, config.apiUrl())) {
                return Uni.createFrom().item(List.copyOf(found));
            }
            return pages(next, Map.of(), accessToken, found, requests + 1);
        });
    }

    private static boolean sameOrigin(String url, String base) {
        try {
            URI next = URI.create(url);
            URI api = URI.create(base);
            return api.getScheme().equals(next.getScheme())
                    && api.getHost().equals(next.getHost())
                    && api.getPort() == next.getPort();
        } catch (IllegalArgumentException | NullPointerException e) {
            return false;
        }
    }

    private Uni<JsonObject> whoGranted(String accessToken) {
        return http.get(
                        config.apiUrl() + "/me",
                        Map.of("fields", "id,permissions"),
                        ProviderHttpClient.bearer(accessToken))
                .map(this::ok);
    }

    private static String grantedPermissions(JsonObject me) {
        return String.join(
                ",", granted(me.getJsonObject("permissions", new JsonObject()).getJsonArray("data", new JsonArray())));
    }

    private JsonObject tokenBody(ProviderResponse response) {
        JsonObject body = ok(response);
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
     * Reads the Page with its own Page token ({@code GET /{page-id}?fields=id}: code 190 for a dead token, 100 or 803
     * for a Page gone or out of reach), then the permissions behind the token ({@code GET /me/permissions},
     * https://developers.facebook.com/docs/facebook-login/guides/permissions/request-revoke): a user can remove one in
     * their business integrations settings, and Graph lists it {@code declined} or not at all.
     */
    @Override
    public Uni<Void> check(ProviderGrant grant, String externalId) {
        return http.get(
                        config.apiUrl() + "/" + externalId,
                        Map.of("fields", "id"),
                        ProviderHttpClient.bearer(grant.accessToken()))
                .map(response -> {
                    if (!response.ok()) {
                        ProviderException failure = GraphApiErrors.of(platform(), response);
                        throw !failure.retryable() && !failure.revoked() && response.status() < 500
                                ? ProviderErrors.identityGone(platform(), externalId)
                                : failure;
                    }
                    return response;
                })
                .flatMap(page -> http.get(
                        config.apiUrl() + "/me/permissions", Map.of(), ProviderHttpClient.bearer(grant.accessToken())))
                .map(response -> {
                    Set<String> granted = granted(ok(response).getJsonArray("data", new JsonArray()));
                    for (String permission : PUBLISHING_PERMISSIONS) {
                        if (!granted.contains(permission)) {
                            throw ProviderErrors.permissionMissing(platform(), permission);
                        }
                    }
                    return null;
                });
    }

    private static Set<String> granted(JsonArray data) {
        Set<String> granted = new LinkedHashSet<>();
        for (int i = 0; i < data.size(); i++) {
            JsonObject permission = data.getJsonObject(i);
            if ("granted".equals(permission.getString("status"))) {
                granted.add(permission.getString("permission"));
            }
        }
        return granted;
    }
}
