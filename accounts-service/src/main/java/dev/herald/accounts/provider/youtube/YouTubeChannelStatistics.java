package dev.herald.accounts.provider.youtube;

import dev.herald.accounts.config.ProvidersConfig;
import dev.herald.accounts.provider.AccountAnalyticsReader;
import dev.herald.accounts.provider.AccountStatistics;
import dev.herald.accounts.provider.http.ProviderErrors;
import dev.herald.accounts.provider.http.ProviderHttpClient;
import dev.herald.common.wire.AccountAnalytics;
import dev.herald.common.wire.Platform;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;

/**
 * A channel's public statistics ({@code channels.list?part=statistics&id=}, YouTube Data API v3): subscribers
 * (null while the channel hides its count, {@code hiddenSubscriberCount}), lifetime views and videos. Only ever
 * called once the owner accepted the analytics policy for the current authorization (until then the account is redacted
 * and YouTube is never asked).
 */
@ApplicationScoped
public class YouTubeChannelStatistics implements AccountAnalyticsReader {
    private final ProvidersConfig.YouTube config;
    private final ProviderHttpClient http;

    public YouTubeChannelStatistics(ProvidersConfig config, ProviderHttpClient http) {
        this.config = config.youtube();
        this.http = http;
    }

    @Override
    public Platform platform() {
        return Platform.YOUTUBE;
    }

    @Override
    public Uni<AccountStatistics> read(String accessToken, String externalId) {
        return http.get(
                        config.apiUrl() + "/youtube/v3/channels",
                        Map.of("part", "statistics", "id", externalId),
                        ProviderHttpClient.bearer(accessToken))
                .map(response -> {
                    if (!response.ok()) {
                        throw YouTubeOAuthProvider.apiFailure(response);
                    }
                    JsonArray items = response.json().getJsonArray("items", new JsonArray());
                    JsonObject statistics =
                            items.isEmpty() ? null : items.getJsonObject(0).getJsonObject("statistics");
                    if (statistics == null) {
                        throw ProviderErrors.malformed(Platform.YOUTUBE, "the channel's statistics");
                    }
                    Long subscribers = statistics.getBoolean("hiddenSubscriberCount", false)
                            ? null
                            : AccountStatistics.count(statistics, "subscriberCount");
                    return new AccountStatistics(
                            new AccountAnalytics.Metrics(
                                    subscribers,
                                    null,
                                    AccountStatistics.count(statistics, "videoCount"),
                                    AccountStatistics.count(statistics, "viewCount"),
                                    null),
                            AccountStatistics.raw(statistics));
                });
    }
}
