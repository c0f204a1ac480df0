package dev.herald.accounts.provider.tiktok;

import static dev.herald.accounts.provider.http.TokenResponses.text;

import dev.herald.accounts.config.ProvidersConfig;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * TikTok Login Kit for Web with OAuth v2.
 * <ul>
 * <li>Authorization: https://developers.tiktok.com/doc/login-kit-web ({@code client_key}, comma-separated
 * {@code scope}, {@code state}). TikTok documents PKCE ({@code code_verifier}) for mobile and desktop apps
 * only, so the web flow relies on {@code state}.</li>
 * <li>Token, refresh and revoke: https://developers.tiktok.com/doc/oauth-user-access-token-management
 * ({@code /v2/oauth/token/}, {@code /v2/oauth/revoke/}); errors per
 * https://developers.tiktok.com/doc/oauth-error-handling.</li>
 * <li>Identity: https://developers.tiktok.com/doc/tiktok-api-v2-get-user-info ({@code /v2/user/info/};
 * {@code username} needs {@code user.info.profile}).</li>
 * </ul>
 */
@ApplicationScoped
public class TikTokOAuthProvider extends ConfiguredOAuthProvider {
    private final ProvidersConfig.TikTok config;

    public TikTokOAuthProvider(ProvidersConfig config, ProviderHttpClient http) {
        super(Platform.TIKTOK, config.tiktok(), http);
        this.config = config.tiktok();
    }

    @Override
    protected String clientIdParameter() {
        return "client_key";
    }

    @Override
    public Uni<ProviderGrant> exchangeCode(String code, String codeVerifier, URI redirectUri) {
        // TikTok's web flow takes no code_verifier (only its mobile and desktop flows use PKCE).
        return Uni.createFrom()
                .deferred(() -> requestToken(
                        tokenUrl(), codeForm(code, null, redirectUri), Map.of(), null, body -> text(body, "open_id")));
    }

    @Override
    public Uni<ProviderGrant> refresh(ProviderGrant grant) {
        return refreshAt(tokenUrl(), Map.of(), grant, this::refreshForm);
    }

    @Override
    public Uni<Void> revoke(ProviderGrant grant) {
        return Uni.createFrom().deferred(() -> {
            ProviderCredentials credentials = credentials();
            return http.postForm(
                            config.apiUrl() + "/v2/oauth/revoke/",
                            Map.of(
                                    "client_key",
                                    credentials.clientId(),
                                    "client_secret",
                                    credentials.clientSecret(),
                                    "token",
                                    grant.accessToken()),
                            Map.of())
                    .map(response -> {
                        if (!response.ok() || ProviderErrors.oauthErrorIn(response)) {
                            throw ProviderErrors.oauth(platform(), response, false);
                        }
                        return null;
                    });
        });
    }

    @Override
    public Uni<List<ProviderIdentity>> identities(ProviderGrant grant) {
        return http.get(
                        config.apiUrl() + "/v2/user/info/",
                        Map.of("fields", "open_id,union_id,avatar_url,display_name,username"),
                        ProviderHttpClient.bearer(grant.accessToken()))
                .map(response -> {
                    JsonObject user = TikTokApi.data(response).getJsonObject("user", new JsonObject());
                    String openId = text(user, "open_id");
                    if (openId == null) {
                        openId = grant.subject();
                    }
                    if (openId == null) {
                        throw ProviderErrors.malformed(platform(), "the user's open_id");
                    }
                    return List.of(new ProviderIdentity(
                            openId, "creator", text(user, "display_name"), text(user, "username"), null));
                });
    }

    private String tokenUrl() {
        return config.apiUrl() + "/v2/oauth/token/";
    }

    /**
     * The Content Posting API's creator info query: the read TikTok asks for before every post, answered only for a
     * live token with {@code video.publish} ({@code access_token_invalid} and {@code scope_not_authorized} are
     * definitive, {@code rate_limit_exceeded} and 5xx temporary: {@link TikTokApi}). The token is the creator's own, so
     * the answer is about {@code externalId}.
     */
    @Override
    public Uni<Void> check(ProviderGrant grant, String externalId) {
        Map<String, String> headers = new HashMap<>(ProviderHttpClient.bearer(grant.accessToken()));
        headers.put("Content-Type", "application/json; charset=UTF-8");
        return http.postJson(config.apiUrl() + "/v2/post/publish/creator_info/query/", new JsonObject(), headers)
                .map(response -> {
                    TikTokApi.data(response);
                    return null;
                });
    }
}
