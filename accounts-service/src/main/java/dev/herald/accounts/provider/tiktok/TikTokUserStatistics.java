package dev.herald.accounts.provider.tiktok;

import dev.herald.accounts.config.ProvidersConfig;
import dev.herald.accounts.provider.AccountAnalyticsReader;
import dev.herald.accounts.provider.AccountStatistics;
import dev.herald.accounts.provider.ScopeNotGranted;
import dev.herald.accounts.provider.http.ProviderHttpClient;
import dev.herald.common.wire.AccountAnalytics;
import dev.herald.common.wire.Platform;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;

/**
 * The creator's counts from Get User Info (https://developers.tiktok.com/doc/tiktok-api-v2-get-user-info,
 * {@code GET /v2/user/info/?fields=follower_count,following_count,likes_count,video_count}, scope
 * {@code user.info.stats}): followers, following, posts ({@code video_count}) and likes ({@code likes_count}, the
 * likes all its videos received). TikTok has no account-wide views here (null). A grant from before Herald asked for
 * {@code user.info.stats} is refused {@code scope_not_authorized}: {@link ScopeNotGranted}, not a revoked token.
 */
@ApplicationScoped
public class TikTokUserStatistics implements AccountAnalyticsReader {
    static final String FIELDS = "follower_count,following_count,likes_count,video_count";
    static final String SCOPE = "user.info.stats";

    private final ProvidersConfig.TikTok config;
    private final ProviderHttpClient http;

    public TikTokUserStatistics(ProvidersConfig config, ProviderHttpClient http) {
        this.config = config.tiktok();
        this.http = http;
    }

    @Override
    public Platform platform() {
        return Platform.TIKTOK;
    }

    @Override
    public Uni<AccountStatistics> read(String accessToken, String externalId) {
        return http.get(
                        config.apiUrl() + "/v2/user/info/",
                        Map.of("fields", FIELDS),
                        ProviderHttpClient.bearer(accessToken))
                .map(response -> {
                    if (TikTokApi.scopeNotAuthorized(response)) {
                        throw new ScopeNotGranted(Platform.TIKTOK, SCOPE);
                    }
                    JsonObject user = TikTokApi.data(response).getJsonObject("user", new JsonObject());
                    return new AccountStatistics(
                            new AccountAnalytics.Metrics(
                                    AccountStatistics.count(user, "follower_count"),
                                    AccountStatistics.count(user, "following_count"),
                                    AccountStatistics.count(user, "video_count"),
                                    null,
                                    AccountStatistics.count(user, "likes_count")),
                            AccountStatistics.raw(user));
                });
    }
}
