package dev.herald.accounts.provider.instagram;

import dev.herald.accounts.config.ProvidersConfig;
import dev.herald.accounts.provider.AccountAnalyticsReader;
import dev.herald.accounts.provider.AccountStatistics;
import dev.herald.accounts.provider.facebook.GraphApiErrors;
import dev.herald.accounts.provider.http.ProviderHttpClient;
import dev.herald.common.wire.AccountAnalytics;
import dev.herald.common.wire.Platform;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;

/**
 * A professional account's counts from its user fields (Instagram API with Instagram Login,
 * {@code GET /{version}/me?fields=followers_count,follows_count,media_count}): followers, following and posts.
 */
@ApplicationScoped
public class InstagramProfileStatistics implements AccountAnalyticsReader {
    static final String FIELDS = "followers_count,follows_count,media_count";

    private final ProvidersConfig.Instagram config;
    private final ProviderHttpClient http;

    public InstagramProfileStatistics(ProvidersConfig config, ProviderHttpClient http) {
        this.config = config.instagram();
        this.http = http;
    }

    @Override
    public Platform platform() {
        return Platform.INSTAGRAM;
    }

    @Override
    public Uni<AccountStatistics> read(String accessToken, String externalId) {
        return http.get(
                        config.apiUrl() + "/" + config.apiVersion() + "/me",
                        Map.of("fields", FIELDS),
                        ProviderHttpClient.bearer(accessToken))
                .map(response -> {
                    if (!response.ok()) {
                        throw GraphApiErrors.of(Platform.INSTAGRAM, response);
                    }
                    JsonObject user = response.json();
                    return new AccountStatistics(
                            new AccountAnalytics.Metrics(
                                    AccountStatistics.count(user, "followers_count"),
                                    AccountStatistics.count(user, "follows_count"),
                                    AccountStatistics.count(user, "media_count"),
                                    null,
                                    null),
                            AccountStatistics.raw(user));
                });
    }
}
