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
    void anAnswerOverTheCapIsNotReadDeclaredOrChunked() {
        String huge = "{\"pad\":\"" + "x".repeat(3 << 20) + "\"}";
        fake.server()
                .stubFor(get(urlPathEqualTo("/declared"))
                        .willReturn(aResponse().withStatus(200).withBody(huge)));
        fake.server()
                .stubFor(get(urlPathEqualTo("/chunked"))
                        .willReturn(aResponse().withStatus(200).withBody(huge).withChunkedDribbleDelay(4, 40)));

        for (String path : new String[] {"/declared", "/chunked"}) {
            ProviderException failure = failure(fake.http(fake.config()).get(fake.url() + path, Map.of(), Map.of()));

            assertThat(failure.code()).as(path).isEqualTo("answer_too_large");
            assertThat(failure.getMessage())
                    .isEqualTo("the provider's answer was over the 1048576-byte limit and was not read");
            assertThat(failure.retryable()).isTrue();
            assertThat(failure.revoked()).isFalse();
        }
    }

    @Test
    void aSuccessfulAnswerThatIsNotJsonIsMalformedAndNotEchoed() {
        fake.server()
                .stubFor(get(urlPathEqualTo("/html"))
                        .willReturn(aResponse().withStatus(200).withBody("<html>secret-looking page</html>")));

        ProviderException failure = failure(fake.http(fake.config()).get(fake.url() + "/html", Map.of(), Map.of()));

        assertThat(failure.code()).isEqualTo("malformed_response");
        assertThat(failure.getMessage()).doesNotContain("secret-looking");
    }

    @Test
    void aRedirectIsHandedBackNotFollowed() {
        fake.server()
                .stubFor(get(urlPathEqualTo("/moved"))
                        .willReturn(aResponse().withStatus(302).withHeader("Location", fake.url() + "/elsewhere")));

        ProviderResponse answer =
                FakeProvider.await(fake.http(fake.config()).get(fake.url() + "/moved", Map.of(), Map.of()));

        assertThat(answer.status()).isEqualTo(302);
        assertThat(fake.server()
                        .findAll(com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor(
                                urlPathEqualTo("/elsewhere"))))
                .isEmpty();
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
