package dev.herald.accounts.provider.pinterest;

import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static dev.herald.accounts.provider.FakeProvider.await;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.accounts.provider.AccountStatistics;
import dev.herald.accounts.provider.FakeProvider;
import dev.herald.common.wire.AccountAnalytics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Pinterest's account statistics ({@code GET /v5/user_account}) against a WireMock fake. */
class PinterestUserAccountStatisticsTest {
    @RegisterExtension
    static final FakeProvider fake = new FakeProvider();

    @Test
    void pinterestReadsTheUserAccountFromTheProductionOrTheTrialHost() {
        String body = """
                {"account_type":"BUSINESS","username":"anabakes","follower_count":2300,"following_count":150,"pin_count":410,
                 "monthly_views":98000,"board_count":12}""";
        fake.server().stubFor(get(urlPathEqualTo("/v5/user_account")).willReturn(okJson(body)));
        fake.server().stubFor(get(urlPathEqualTo("/sandbox/v5/user_account")).willReturn(okJson(body)));

        AccountStatistics production =
                await(new PinterestUserAccountStatistics(fake.config(), false, fake.http(fake.config()))
                        .read("pina_1", "anabakes"));
        AccountStatistics trial =
                await(new PinterestUserAccountStatistics(fake.config(), true, fake.http(fake.config()))
                        .read("pina_1", "anabakes"));

        assertThat(production.metrics()).isEqualTo(new AccountAnalytics.Metrics(2300L, 150L, 410L, 98000L, null));
        assertThat(trial.metrics()).isEqualTo(production.metrics());
        fake.server()
                .verify(
                        1,
                        getRequestedFor(urlPathEqualTo("/v5/user_account"))
                                .withHeader("Authorization", equalTo("Bearer pina_1")));
        fake.server().verify(1, getRequestedFor(urlPathEqualTo("/sandbox/v5/user_account")));
    }
}
