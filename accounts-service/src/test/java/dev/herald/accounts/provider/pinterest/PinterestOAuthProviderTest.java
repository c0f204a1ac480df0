package dev.herald.accounts.provider.pinterest;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static dev.herald.accounts.provider.FakeProvider.await;
import static dev.herald.accounts.provider.FakeProvider.failure;
import static dev.herald.accounts.provider.FakeProvider.query;
import static dev.herald.accounts.provider.FakeProvider.redirect;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.accounts.provider.AuthorizationRequest;
import dev.herald.accounts.provider.FakeProvider;
import dev.herald.accounts.provider.ProviderException;
import dev.herald.accounts.provider.ProviderGrant;
import dev.herald.accounts.provider.ProviderIdentity;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class PinterestOAuthProviderTest {
    @RegisterExtension
    static final FakeProvider fake = new FakeProvider();

    private static final String BASIC = "Basic "
            + Base64.getEncoder()
                    .encodeToString((FakeProvider.CLIENT_ID + ":" + FakeProvider.CLIENT_SECRET)
                            .getBytes(StandardCharsets.UTF_8));

    private PinterestOAuthProvider provider() {
        return new PinterestOAuthProvider(fake.config(), fake.http(fake.config()));
    }

    private static ProviderGrant grant() {
        return new ProviderGrant(
                "pina_old",
                "pinr_old",
                Instant.now().plusSeconds(60),
                Instant.now().plusSeconds(600),
                Set.of("boards:read"),
                "549755885175");
    }

    @Test
    void authorizationAsksForBoardsPinsAndTheAccount() {
        var url = provider().authorizationUrl(new AuthorizationRequest("state-1", null, redirect()));

        assertThat(url.toString()).startsWith(fake.url() + "/pinterest/authorize?");
        assertThat(query(url))
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        "client_id",
                        FakeProvider.CLIENT_ID,
                        "redirect_uri",
                        redirect().toString(),
                        "response_type",
                        "code",
                        "scope",
                        "boards:read,boards:write,pins:read,pins:write,user_accounts:read",
                        "state",
                        "state-1"));
    }

    @Test
    void theCodeIsExchangedWithBasicCredentialsForAContinuouslyRefreshedGrant() {
        fake.server().stubFor(post(urlPathEqualTo("/v5/oauth/token")).willReturn(okJson("""
                {"access_token":"pina_new","refresh_token":"pinr_new","response_type":"authorization_code",
                 "token_type":"bearer","expires_in":2592000,"refresh_token_expires_in":5184000,
                 "scope":"boards:read,pins:read user_accounts:read"}""")));
        fake.server().stubFor(get(urlPathEqualTo("/v5/user_account")).willReturn(okJson("""
                {"account_type":"BUSINESS","id":"549755885175","username":"anabakes","business_name":"Ana Bakes"}""")));

        ProviderGrant grant = await(provider().exchangeCode("code-1", null, redirect()));

        assertThat(grant.accessToken()).isEqualTo("pina_new");
        assertThat(grant.refreshToken()).isEqualTo("pinr_new");
        assertThat(grant.refreshExpiresAt()).isAfter(Instant.now().plusSeconds(5183000));
        assertThat(grant.subject()).isEqualTo("549755885175");
        assertThat(grant.scopes()).containsExactlyInAnyOrder("boards:read", "pins:read", "user_accounts:read");
        fake.server()
                .verify(postRequestedFor(urlPathEqualTo("/v5/oauth/token"))
                        .withHeader("Authorization", equalTo(BASIC))
                        .withFormParam("grant_type", equalTo("authorization_code"))
                        .withFormParam("code", equalTo("code-1"))
                        .withFormParam("redirect_uri", equalTo(redirect().toString()))
                        .withFormParam("continuous_refresh", equalTo("true")));
    }

    @Test
    void refreshReplacesBothTokens() {
        fake.server().stubFor(post(urlPathEqualTo("/v5/oauth/token")).willReturn(okJson("""
                {"access_token":"pina_2","refresh_token":"pinr_2","token_type":"bearer","expires_in":2592000,
                 "refresh_token_expires_in":5184000,"scope":"boards:read"}""")));

        ProviderGrant refreshed = await(provider().refresh(grant()));

        assertThat(refreshed.accessToken()).isEqualTo("pina_2");
        assertThat(refreshed.refreshToken()).isEqualTo("pinr_2");
        assertThat(refreshed.subject()).isEqualTo("549755885175");
        fake.server()
                .verify(postRequestedFor(urlPathEqualTo("/v5/oauth/token"))
                        .withHeader("Authorization", equalTo(BASIC))
                        .withFormParam("grant_type", equalTo("refresh_token"))
                        .withFormParam("refresh_token", equalTo("pinr_old")));
    }

    @Test
    void aRefusedRefreshTokenIsRevokedButAnOutageIsRetryable() {
        fake.server()
                .stubFor(post(urlPathEqualTo("/v5/oauth/token"))
                        .willReturn(aResponse()
                                .withStatus(400)
                                .withHeader("Content-Type", "application/json")
                                .withBody("{\"code\":1,\"message\":\"Invalid refresh token\"}")));
        ProviderException refused = failure(provider().refresh(grant()));

        fake.server()
                .stubFor(post(urlPathEqualTo("/v5/oauth/token"))
                        .willReturn(aResponse().withStatus(502)));
        ProviderException outage = failure(provider().refresh(grant()));

        assertThat(refused.revoked()).isTrue();
        assertThat(refused.retryable()).isFalse();
        assertThat(outage.retryable()).isTrue();
        assertThat(outage.revoked()).isFalse();
    }

    @Test
    void theIdentityIsThePinterestAccount() {
        fake.server()
                .stubFor(get(urlPathEqualTo("/v5/user_account"))
                        .withHeader("Authorization", equalTo("Bearer pina_old"))
                        .willReturn(okJson(
                                "{\"account_type\":\"PINNER\",\"id\":\"549755885175\",\"username\":\"anabakes\"}")));

        assertThat(await(provider().identities(grant())))
                .containsExactly(new ProviderIdentity("549755885175", "pinterest_user", "anabakes", "anabakes", null));
    }

    @Test
    void anUnauthorizedTokenIsRevoked() {
        fake.server()
                .stubFor(get(urlPathEqualTo("/v5/user_account"))
                        .willReturn(aResponse()
                                .withStatus(401)
                                .withHeader("Content-Type", "application/json")
                                .withBody("{\"code\":2,\"message\":\"Authentication failed.\"}")));

        ProviderException failure = failure(provider().identities(grant()));

        assertThat(failure.code()).isEqualTo("pinterest_2");
        assertThat(failure.revoked()).isTrue();
    }
}
