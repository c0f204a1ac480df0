package dev.herald.accounts.provider.tiktok;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static dev.herald.accounts.provider.FakeProvider.await;
import static dev.herald.accounts.provider.FakeProvider.failure;
import static dev.herald.accounts.provider.FakeProvider.query;
import static dev.herald.accounts.provider.FakeProvider.redirect;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.herald.accounts.provider.AuthorizationRequest;
import dev.herald.accounts.provider.FakeProvider;
import dev.herald.accounts.provider.ProviderException;
import dev.herald.accounts.provider.ProviderGrant;
import dev.herald.accounts.provider.ProviderIdentity;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class TikTokOAuthProviderTest {
    @RegisterExtension
    static final FakeProvider fake = new FakeProvider();

    private TikTokOAuthProvider provider() {
        return new TikTokOAuthProvider(fake.config(), fake.http(fake.config()));
    }

    private static ProviderGrant grant() {
        return new ProviderGrant(
                "act.old", "rft.old", Instant.now().plusSeconds(60), null, Set.of("user.info.basic"), "open-1");
    }

    @Test
    void authorizationUrlCarriesClientKeyScopesRedirectAndStateButNoChallenge() {
        var url = provider().authorizationUrl(new AuthorizationRequest("state-1", "challenge", redirect()));

        assertThat(url.toString()).startsWith(fake.url() + "/tiktok/authorize?");
        assertThat(query(url))
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        "client_key",
                        FakeProvider.CLIENT_ID,
                        "response_type",
                        "code",
                        "scope",
                        "user.info.basic,user.info.profile,user.info.stats,video.list,video.publish,video.upload",
                        "redirect_uri",
                        redirect().toString(),
                        "state",
                        "state-1"));
        assertThat(provider().supportsPkce()).isFalse();
    }

    @Test
    void codeIsExchangedForTheCreatorsGrant() {
        fake.server().stubFor(post(urlPathEqualTo("/v2/oauth/token/")).willReturn(okJson("""
                {"access_token":"act.new","expires_in":86400,"open_id":"open-1","refresh_expires_in":31536000,
                 "refresh_token":"rft.new","scope":"user.info.basic,video.publish","token_type":"Bearer"}""")));

        ProviderGrant grant = await(provider().exchangeCode("code-1", null, redirect()));

        assertThat(grant.accessToken()).isEqualTo("act.new");
        assertThat(grant.refreshToken()).isEqualTo("rft.new");
        assertThat(grant.subject()).isEqualTo("open-1");
        assertThat(grant.scopes()).containsExactlyInAnyOrder("user.info.basic", "video.publish");
        assertThat(grant.expiresAt()).isCloseTo(Instant.now().plusSeconds(86400), within(30, ChronoUnit.SECONDS));
        assertThat(grant.refreshExpiresAt())
                .isCloseTo(Instant.now().plusSeconds(31536000), within(30, ChronoUnit.SECONDS));
        fake.server()
                .verify(postRequestedFor(urlPathEqualTo("/v2/oauth/token/"))
                        .withHeader(
                                "Content-Type",
                                com.github.tomakehurst.wiremock.client.WireMock.containing(
                                        "application/x-www-form-urlencoded"))
                        .withFormParam("client_key", equalTo(FakeProvider.CLIENT_ID))
                        .withFormParam("client_secret", equalTo(FakeProvider.CLIENT_SECRET))
                        .withFormParam("code", equalTo("code-1"))
                        .withFormParam("grant_type", equalTo("authorization_code"))
                        .withFormParam("redirect_uri", equalTo(redirect().toString())));
    }

    @Test
    void refreshUsesTheRefreshTokenAndKeepsTheCreator() {
        fake.server().stubFor(post(urlPathEqualTo("/v2/oauth/token/")).willReturn(okJson("""
                {"access_token":"act.2","expires_in":86400,"refresh_token":"rft.2","refresh_expires_in":100,
                 "scope":"user.info.basic","token_type":"Bearer"}""")));

        ProviderGrant refreshed = await(provider().refresh(grant()));

        assertThat(refreshed.accessToken()).isEqualTo("act.2");
        assertThat(refreshed.refreshToken()).isEqualTo("rft.2");
        assertThat(refreshed.subject()).isEqualTo("open-1");
        fake.server()
                .verify(postRequestedFor(urlPathEqualTo("/v2/oauth/token/"))
                        .withFormParam("grant_type", equalTo("refresh_token"))
                        .withFormParam("refresh_token", equalTo("rft.old")));
    }

    @Test
    void aRefusedRefreshTokenMeansTheGrantIsRevokedEvenWhenTikTokAnswers200() {
        fake.server().stubFor(post(urlPathEqualTo("/v2/oauth/token/")).willReturn(okJson("""
                {"error":"invalid_grant","error_description":"Refresh token is invalid or expired.","log_id":"x"}""")));

        ProviderException failure = failure(provider().refresh(grant()));

        assertThat(failure.code()).isEqualTo("invalid_grant");
        assertThat(failure.revoked()).isTrue();
        assertThat(failure.retryable()).isFalse();
        assertThat(failure.getMessage()).contains("Refresh token is invalid").doesNotContain("rft.old");
    }

    @Test
    void aTemporarilyUnavailableTokenEndpointIsRetryable() {
        fake.server()
                .stubFor(post(urlPathEqualTo("/v2/oauth/token/"))
                        .willReturn(aResponse().withStatus(503).withBody("<html>busy</html>")));

        ProviderException failure = failure(provider().exchangeCode("code-1", null, redirect()));

        assertThat(failure.retryable()).isTrue();
        assertThat(failure.revoked()).isFalse();
    }

    @Test
    void revokePostsTheAccessTokenWithTheClientCredentials() {
        fake.server().stubFor(post(urlPathEqualTo("/v2/oauth/revoke/")).willReturn(okJson("{}")));

        await(provider().revoke(grant()));

        fake.server()
                .verify(postRequestedFor(urlPathEqualTo("/v2/oauth/revoke/"))
                        .withFormParam("client_key", equalTo(FakeProvider.CLIENT_ID))
                        .withFormParam("client_secret", equalTo(FakeProvider.CLIENT_SECRET))
                        .withFormParam("token", equalTo("act.old")));
    }

    @Test
    void theIdentityIsTheCreatorFromUserInfo() {
        fake.server().stubFor(get(urlPathEqualTo("/v2/user/info/")).willReturn(okJson("""
                {"data":{"user":{"open_id":"open-1","union_id":"u-1","display_name":"Ana","username":"ana.makes"}},
                 "error":{"code":"ok","message":"","log_id":"x"}}""")));

        var identities = await(provider().identities(grant()));

        assertThat(identities).containsExactly(new ProviderIdentity("open-1", "creator", "Ana", "ana.makes", null));
        fake.server()
                .verify(getRequestedFor(urlPathEqualTo("/v2/user/info/"))
                        .withQueryParam("fields", equalTo("open_id,union_id,avatar_url,display_name,username"))
                        .withHeader("Authorization", equalTo("Bearer act.old")));
    }

    @Test
    void anInvalidAccessTokenIsRevokedAndARateLimitIsRetryable() {
        fake.server()
                .stubFor(get(urlPathEqualTo("/v2/user/info/"))
                        .willReturn(aResponse()
                                .withStatus(401)
                                .withHeader("Content-Type", "application/json")
                                .withBody("""
                {"data":{},"error":{"code":"access_token_invalid","message":"The access token is invalid.","log_id":"x"}}""")));
        ProviderException revoked = failure(provider().identities(grant()));

        fake.server()
                .stubFor(get(urlPathEqualTo("/v2/user/info/"))
                        .willReturn(aResponse()
                                .withStatus(429)
                                .withHeader("Content-Type", "application/json")
                                .withBody("""
                {"data":{},"error":{"code":"rate_limit_exceeded","message":"slow down","log_id":"x"}}""")));
        ProviderException limited = failure(provider().identities(grant()));

        assertThat(revoked.code()).isEqualTo("access_token_invalid");
        assertThat(revoked.revoked()).isTrue();
        assertThat(revoked.retryable()).isFalse();
        assertThat(limited.code()).isEqualTo("rate_limit_exceeded");
        assertThat(limited.retryable()).isTrue();
        assertThat(limited.revoked()).isFalse();
    }

    @Test
    void withoutClientCredentialsNothingIsBuiltOrSent() {
        TikTokOAuthProvider unconfigured = new TikTokOAuthProvider(fake.unconfigured(), fake.http(fake.unconfigured()));

        assertThatThrownBy(() -> unconfigured.authorizationUrl(new AuthorizationRequest("s", null, redirect())))
                .isInstanceOfSatisfying(ProviderException.class, e -> {
                    assertThat(e.code()).isEqualTo("provider_not_configured");
                    assertThat(e.getMessage()).contains("herald.providers.tiktok.client-id");
                });
        assertThat(failure(unconfigured.exchangeCode("code", null, redirect())).code())
                .isEqualTo("provider_not_configured");
        assertThat(failure(unconfigured.refresh(grant())).code()).isEqualTo("provider_not_configured");
        assertThat(fake.server().getAllServeEvents()).isEmpty();
    }
}
