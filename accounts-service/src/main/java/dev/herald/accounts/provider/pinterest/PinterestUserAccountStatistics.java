package dev.herald.accounts.provider.pinterest;

import dev.herald.accounts.config.AccountsConfig;
import dev.herald.accounts.config.ProvidersConfig;
import dev.herald.accounts.provider.AccountAnalyticsReader;
import dev.herald.accounts.provider.AccountStatistics;
import dev.herald.accounts.provider.http.ProviderHttpClient;
import dev.herald.common.wire.AccountAnalytics;
import dev.herald.common.wire.Platform;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Map;

/**
 * The account's counts from {@code GET /v5/user_account}: followers, following, pins (posts) and
 * {@code monthly_views} (views of the last 30 days, Pinterest's only view count here). Trial apps read from the
 * sandbox host (Pinterest's trial access reaches nothing else).
 */
@ApplicationScoped
public class PinterestUserAccountStatistics implements AccountAnalyticsReader {
    private final ProvidersConfig.Pinterest config;
    private final boolean trialAccess;
    private final ProviderHttpClient http;

    @Inject
    public PinterestUserAccountStatistics(ProvidersConfig config, AccountsConfig accounts, ProviderHttpClient http) {
        this(config, accounts.pinterestTrialAccess(), http);
    }

    PinterestUserAccountStatistics(ProvidersConfig config, boolean trialAccess, ProviderHttpClient http) {
        this.config = config.pinterest();
        this.trialAccess = trialAccess;
        this.http = http;
    }

    @Override
    public Platform platform() {
        return Platform.PINTEREST;
    }

    @Override
    public Uni<AccountStatistics> read(String accessToken, String externalId) {
        String host = trialAccess ? config.sandboxApiUrl() : config.apiUrl();
        return http.get(host + "/v5/user_account", Map.of(), ProviderHttpClient.bearer(accessToken))
                .map(response -> {
                    JsonObject user = PinterestApi.ok(response);
                    return new AccountStatistics(
                            new AccountAnalytics.Metrics(
                                    AccountStatistics.count(user, "follower_count"),
                                    AccountStatistics.count(user, "following_count"),
                                    AccountStatistics.count(user, "pin_count"),
                                    AccountStatistics.count(user, "monthly_views"),
                                    null),
                            AccountStatistics.raw(user));
                });
    }
}
