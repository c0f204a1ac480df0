package dev.herald.accounts.provider.facebook;

import dev.herald.accounts.config.ProvidersConfig;
import dev.herald.accounts.provider.AccountAnalyticsReader;
import dev.herald.accounts.provider.AccountStatistics;
import dev.herald.accounts.provider.http.ProviderHttpClient;
import dev.herald.common.wire.AccountAnalytics;
import dev.herald.common.wire.Platform;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;

/**
 * A Page's audience from its fields ({@code GET /{page-id}?fields=followers_count,fan_count} with the Page token):
 * followers, and the Page's likes (fans). Graph has no lifetime views or post count among a Page's fields.
 */
@ApplicationScoped
public class FacebookPageStatistics implements AccountAnalyticsReader {
    static final String FIELDS = "followers_count,fan_count";

    private final ProvidersConfig.Facebook config;
    private final ProviderHttpClient http;

    public FacebookPageStatistics(ProvidersConfig config, ProviderHttpClient http) {
        this.config = config.facebook();
        this.http = http;
    }

    @Override
    public Platform platform() {
        return Platform.FACEBOOK;
    }

    @Override
    public Uni<AccountStatistics> read(String accessToken, String externalId) {
        return http.get(
                        config.apiUrl() + "/" + externalId,
                        Map.of("fields", FIELDS),
                        ProviderHttpClient.bearer(accessToken))
                .map(response -> {
                    if (!response.ok()) {
                        throw GraphApiErrors.of(Platform.FACEBOOK, response);
                    }
                    JsonObject page = response.json();
                    return new AccountStatistics(
                            new AccountAnalytics.Metrics(
                                    AccountStatistics.count(page, "followers_count"),
                                    null,
                                    null,
                                    null,
                                    AccountStatistics.count(page, "fan_count")),
                            AccountStatistics.raw(page));
                });
    }
}
