package dev.herald.accounts.provider.youtube;

import static dev.herald.accounts.provider.http.TokenResponses.text;

import dev.herald.accounts.config.ProvidersConfig;
import dev.herald.accounts.provider.ProviderException;
import dev.herald.accounts.provider.ProviderGrant;
import dev.herald.accounts.provider.ProviderIdentity;
import dev.herald.accounts.provider.http.AuthorizationUrl;
import dev.herald.accounts.provider.http.ConfiguredOAuthProvider;
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
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * YouTube through Google's OAuth 2.0 for web server applications
 * (https://developers.google.com/identity/protocols/oauth2/web-server): {@code access_type=offline} and
 * {@code prompt=consent} so every authorization yields a refresh token, PKCE S256, token and refresh at
 * {@code /token}, revocation at {@code /revoke}. The {@code openid} scope makes the token response carry an ID
 * token whose {@code sub} is the Google account. Channels come from YouTube Data API v3
 * {@code channels.list?mine=true} (https://developers.google.com/youtube/v3/docs/channels/list).
 */
@ApplicationScoped
public class YouTubeOAuthProvider extends ConfiguredOAuthProvider {
    /** Google API error reasons that are quota or rate limits: retry later, the grant is fine. */
    private static final Set<String> RATE_LIMIT_REASONS =
            Set.of("quotaExceeded", "rateLimitExceeded", "userRateLimitExceeded");

    /** The scope Herald uploads with; a grant without it cannot publish. */
    static final String UPLOAD_SCOPE = "https://www.googleapis.com/auth/youtube.upload";

    private final ProvidersConfig.YouTube config;

    public YouTubeOAuthProvider(ProvidersConfig config, ProviderHttpClient http) {
        super(Platform.YOUTUBE, config.youtube(), http);
        this.config = config.youtube();
    }

    @Override
    public boolean supportsPkce() {
        return true;
    }

    @Override
    protected String scopeSeparator() {
        return " ";
    }

    @Override
    protected AuthorizationUrl withPlatformParameters(AuthorizationUrl url) {
        return url.with("access_type", "offline").with("prompt", "consent").with("include_granted_scopes", "true");
    }

    @Override
    public Uni<ProviderGrant> exchangeCode(String code, String codeVerifier, URI redirectUri) {
        return Uni.createFrom()
                .deferred(() -> requestToken(
                        config.oauthUrl() + "/token",
                        codeForm(code, codeVerifier, redirectUri),
                        Map.of(),
                        null,
                        TokenResponses::idTokenSubject));
    }

    @Override
    public Uni<ProviderGrant> refresh(ProviderGrant grant) {
        return refreshAt(config.oauthUrl() + "/token", Map.of(), grant, this::refreshForm);
    }

    /**
     * Revokes the refresh token, which ends the whole grant (its access tokens too). Google answers
     * {@code invalid_token} for a token already revoked or expired: the grant is gone either way, which is
     * what a disconnect wants, so that counts as done.
     */
    @Override
    public Uni<Void> revoke(ProviderGrant grant) {
        return Uni.createFrom().deferred(() -> {
            credentials();
            String token = grant.refreshToken() != null ? grant.refreshToken() : grant.accessToken();
            return http.postForm(config.oauthUrl() + "/revoke", Map.of("token", token), Map.of())
                    .map(response -> {
                        if (response.ok()
                                || (response.status() == 400
                                        && "invalid_token"
                                                .equals(response.json().getValue("error")))) {
                            return null;
                        }
                        throw ProviderErrors.oauth(platform(), response, false);
                    });
        });
    }

    @Override
    public Uni<List<ProviderIdentity>> identities(ProviderGrant grant) {
        return http.get(
                        config.apiUrl() + "/youtube/v3/channels",
                        Map.of("part", "snippet", "mine", "true", "maxResults", "50"),
                        ProviderHttpClient.bearer(grant.accessToken()))
                .map(response -> {
                    if (!response.ok()) {
                        throw apiFailure(response);
                    }
                    List<ProviderIdentity> channels = new ArrayList<>();
                    JsonArray items = response.json().getJsonArray("items", new JsonArray());
                    for (int i = 0; i < items.size(); i++) {
                        JsonObject channel = items.getJsonObject(i);
                        JsonObject snippet = channel.getJsonObject("snippet", new JsonObject());
                        channels.add(new ProviderIdentity(
                                text(channel, "id"),
                                "channel",
                                text(snippet, "title"),
                                text(snippet, "customUrl"),
                                null));
                    }
                    return List.copyOf(channels);
                });
    }

    /** Google's {@code {"error": {"code", "message", "status", "errors": [{"reason"}]}}}. */
    static ProviderException apiFailure(ProviderResponse response) {
        JsonObject error = response.json().getValue("error") instanceof JsonObject object ? object : new JsonObject();
        JsonArray errors = error.getJsonArray("errors", new JsonArray());
        String reason = errors.isEmpty() ? null : errors.getJsonObject(0).getString("reason");
        String code = reason != null ? reason : error.getString("status");
        // A 403 from a proxy or an HTML error page has no reason (and Set.of takes no null).
        if (response.status() == 403 && reason != null && RATE_LIMIT_REASONS.contains(reason)) {
            return ProviderErrors.exception(Platform.YOUTUBE, reason, error.getString("message"), 403, false, true);
        }
        return ProviderErrors.api(Platform.YOUTUBE, response, code, error.getString("message"));
    }

    /**
     * Google's tokeninfo ({@code GET /tokeninfo?access_token=}, https://developers.google.com/identity/sign-in/web/backend-auth
     * "Calling the tokeninfo endpoint") says whether the token is alive and which scopes it still carries (a user can
     * withdraw one in their Google account), then {@code channels.list?part=id&mine=true} whether the channel is still
     * the grant's. Tokeninfo refuses a dead token with 400 {@code invalid_token}.
     */
    @Override
    public Uni<Void> check(ProviderGrant grant, String externalId) {
        return http.get(config.oauthUrl() + "/tokeninfo", Map.of("access_token", grant.accessToken()), Map.of())
                .map(response -> {
                    if (!response.ok()) {
                        ProviderException failure = ProviderErrors.oauth(platform(), response, false);
                        throw "invalid_token".equals(failure.code())
                                ? new ProviderException(failure.code(), failure.getMessage(), true, false)
                                : failure;
                    }
                    if (!TokenResponses.scopes(response.json().getValue("scope"))
                            .contains(UPLOAD_SCOPE)) {
                        throw ProviderErrors.permissionMissing(platform(), UPLOAD_SCOPE);
                    }
                    return response;
                })
                .flatMap(scoped -> http.get(
                        config.apiUrl() + "/youtube/v3/channels",
                        Map.of("part", "id", "mine", "true", "maxResults", "50"),
                        ProviderHttpClient.bearer(grant.accessToken())))
                .map(response -> {
                    if (!response.ok()) {
                        ProviderException failure = apiFailure(response);
                        // 403 insufficientPermissions / forbidden: the grant no longer reads the channel.
                        throw response.status() == 403 && !failure.retryable()
                                ? new ProviderException(failure.code(), failure.getMessage(), true, false)
                                : failure;
                    }
                    JsonArray items = response.json().getJsonArray("items", new JsonArray());
                    for (int i = 0; i < items.size(); i++) {
                        if (externalId.equals(items.getJsonObject(i).getString("id"))) {
                            return null;
                        }
                    }
                    throw ProviderErrors.identityGone(platform(), externalId);
                });
    }
}
