package dev.herald.accounts.provider.tiktok;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static dev.herald.accounts.provider.FakeProvider.await;
import static dev.herald.accounts.provider.FakeProvider.failure;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.accounts.provider.AccountStatistics;
import dev.herald.accounts.provider.FakeProvider;
import dev.herald.accounts.provider.ProviderException;
import dev.herald.accounts.provider.ScopeNotGranted;
import dev.herald.common.wire.AccountAnalytics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** TikTok's Get User Info stats ({@code GET /v2/user/info/}, scope {@code user.info.stats}) against a WireMock fake. */
class TikTokUserStatisticsTest {
    @RegisterExtension
    static final FakeProvider fake = new FakeProvider();

    private TikTokUserStatistics reader() {
        return new TikTokUserStatistics(fake.config(), fake.http(fake.config()));
    }

    @Test
    void theCreatorsCountsAreReadWithItsTokenAndKeptAsTikTokAnsweredThem() throws Exception {
        fake.server().stubFor(get(urlPathEqualTo("/v2/user/info/")).willReturn(okJson("""
                {"data":{"user":{"follower_count":5120,"following_count":87,"likes_count":40210,"video_count":64}},
                 "error":{"code":"ok","message":"","log_id":"20261125105301ABCDEF"}}""")));

        AccountStatistics statistics = await(reader().read("act.creator", "-000open"));

        assertThat(statistics.metrics()).isEqualTo(new AccountAnalytics.Metrics(5120L, 87L, 64L, null, 40210L));
        assertThat(statistics.raw()).isEqualTo(new ObjectMapper().readTree("""
                {"follower_count":5120,"following_count":87,"likes_count":40210,"video_count":64}"""));
        fake.server()
                .verify(
                        1,
                        getRequestedFor(urlPathEqualTo("/v2/user/info/"))
                                .withHeader("Authorization", equalTo("Bearer act.creator"))
                                .withQueryParam(
                                        "fields", equalTo("follower_count,following_count,likes_count,video_count")));
    }

    @Test
    void aGrantWithoutUserInfoStatsIsAMissingScopeNotARevokedToken() {
        fake.server()
                .stubFor(get(urlPathEqualTo("/v2/user/info/"))
                        .willReturn(aResponse()
                                .withStatus(401)
                                .withHeader("Content-Type", "application/json")
                                .withBody("""
                        {"data":{},"error":{"code":"scope_not_authorized","message":"The user did not authorize the scope required for completing this request.","log_id":"x"}}""")));

        ProviderException failure = failure(reader().read("act.old-grant", "-000open"));

        assertThat(failure).isInstanceOf(ScopeNotGranted.class);
        assertThat(failure.code()).isEqualTo("scope_not_authorized");
        assertThat(failure.revoked()).isFalse();
        assertThat(failure.retryable()).isFalse();
        assertThat(failure.getMessage()).contains("user.info.stats").contains("reconnect");
    }

    @Test
    void aRefusedTokenIsRevokedSoTheCallerRenewsIt() {
        fake.server()
                .stubFor(get(urlPathEqualTo("/v2/user/info/"))
                        .willReturn(aResponse()
                                .withStatus(401)
                                .withHeader("Content-Type", "application/json")
                                .withBody("""
                        {"data":{},"error":{"code":"access_token_invalid","message":"The access token is invalid or not found in the request.","log_id":"x"}}""")));

        ProviderException failure = failure(reader().read("act.expired", "-000open"));

        assertThat(failure).isNotInstanceOf(ScopeNotGranted.class);
        assertThat(failure.code()).isEqualTo("access_token_invalid");
        assertThat(failure.revoked()).isTrue();
    }
}
