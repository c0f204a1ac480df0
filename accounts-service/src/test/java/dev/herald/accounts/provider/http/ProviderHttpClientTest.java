package dev.herald.accounts.provider.http;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static dev.herald.accounts.provider.FakeProvider.failure;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.http.Fault;
import dev.herald.accounts.config.ProvidersConfig;
import dev.herald.accounts.provider.FakeProvider;
import dev.herald.accounts.provider.ProviderException;
import dev.herald.common.wire.Platform;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class ProviderHttpClientTest {
    @RegisterExtension
    static final FakeProvider fake = new FakeProvider();

    @Test
    void aProviderThatDoesNotAnswerInTimeIsRetryable() {
        ProvidersConfig config = fake.config(Map.of("herald.providers.request-timeout", "300ms"));
        fake.server()
                .stubFor(get(urlPathEqualTo("/slow"))
                        .willReturn(aResponse().withStatus(200).withFixedDelay(3000)));

        long started = System.nanoTime();
        ProviderException failure = failure(fake.http(config).get(fake.url() + "/slow", Map.of(), Map.of()));

        assertThat(failure.code()).isEqualTo("provider_unreachable");
        assertThat(failure.retryable()).isTrue();
        assertThat(failure.revoked()).isFalse();
        assertThat((System.nanoTime() - started) / 1_000_000).isLessThan(2500);
    }

    @Test
    void aDroppedConnectionIsRetryable() {
        fake.server()
                .stubFor(get(urlPathEqualTo("/reset"))
                        .willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));

        ProviderException failure = failure(fake.http(fake.config()).get(fake.url() + "/reset", Map.of(), Map.of()));

        assertThat(failure.code()).isEqualTo("provider_unreachable");
        assertThat(failure.retryable()).isTrue();
    }

    @Test
    void oauthErrorsAreRevokedOnlyWhenTheGrantIsDead() {
        ProviderException invalidGrant = ProviderErrors.oauth(
                Platform.LINKEDIN,
                new ProviderResponse(400, "{\"error\":\"invalid_grant\",\"error_description\":\"expired\"}"),
                false);
        ProviderException badCode = ProviderErrors.oauth(
                Platform.LINKEDIN, new ProviderResponse(400, "{\"error\":\"invalid_request\"}"), false);
        ProviderException refreshRefused = ProviderErrors.oauth(
                Platform.PINTEREST,
                new ProviderResponse(400, "{\"code\":1,\"message\":\"Invalid refresh token\"}"),
                true);
        ProviderException ourClientIsWrong = ProviderErrors.oauth(
                Platform.LINKEDIN, new ProviderResponse(401, "{\"error\":\"invalid_client\"}"), true);
        ProviderException busy = ProviderErrors.oauth(
                Platform.LINKEDIN, new ProviderResponse(400, "{\"error\":\"temporarily_unavailable\"}"), true);

        assertThat(invalidGrant.revoked()).isTrue();
        assertThat(badCode.revoked()).isFalse();
        assertThat(badCode.retryable()).isFalse();
        assertThat(refreshRefused.revoked()).isTrue();
        assertThat(ourClientIsWrong.revoked()).isFalse();
        assertThat(busy.retryable()).isTrue();
        assertThat(busy.revoked()).isFalse();
    }
}
