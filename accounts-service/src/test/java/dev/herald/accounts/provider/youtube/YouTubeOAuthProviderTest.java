package dev.herald.accounts.provider.youtube;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.absent;
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

import dev.herald.accounts.provider.AuthorizationRequest;
import dev.herald.accounts.provider.FakeProvider;
import dev.herald.accounts.provider.ProviderException;
import dev.herald.accounts.provider.ProviderGrant;
import dev.herald.accounts.provider.ProviderIdentity;
import dev.herald.accounts.provider.http.ProviderResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class YouTubeOAuthProviderTest {
    @RegisterExtension
    static final FakeProvider fake = new FakeProvider();

    private YouTubeOAuthProvider provider() {
        return new YouTubeOAuthProvider(fake.config(), fake.http(fake.config()));
    }

    private static ProviderGrant grant() {
        return new ProviderGrant(
                "ya29.old",
                "1//refresh",
                Instant.now().plusSeconds(60),
                null,
                Set.of("https://www.googleapis.com/auth/youtube.upload"),
                "google-sub-1");
    }

    private static String idToken(String sub) {
        Base64.Encoder encoder = Base64.getUrlEncoder().withoutPadding();
        return encoder.encodeToString("{\"alg\":\"RS256\"}".getBytes(StandardCharsets.UTF_8)) + "."
                + encoder.encodeToString(("{\"sub\":\"" + sub + "\",\"iss\":\"https://accounts.google.com\"}")
                        .getBytes(StandardCharsets.UTF_8))
                + ".signature";
    }

    @Test
    void authorizationAsksForOfflineAccessConsentAndPkce() {
        var url = provider().authorizationUrl(new AuthorizationRequest("state-1", "challenge-abc", redirect()));

        assertThat(url.toString()).startsWith(fake.url() + "/youtube/authorize?");
        assertThat(query(url))
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        "client_id",
                        FakeProvider.CLIENT_ID,
                        "redirect_uri",
                        redirect().toString(),
                        "response_type",
                        "code",
                        "scope",
                        "openid https://www.googleapis.com/auth/youtube.upload https://www.googleapis.com/auth/youtube.readonly "
                                + "https://www.googleapis.com/auth/yt-analytics.readonly https://www.googleapis.com/auth/youtube.force-ssl",
                        "access_type",
                        "offline",
                        "prompt",
                        "consent",
                        "include_granted_scopes",
                        "true",
                        "state",
                        "state-1",
                        "code_challenge",
                        "challenge-abc",
                        "code_challenge_method",
                        "S256"));
        assertThat(url.getRawQuery()).contains("scope=openid%20https%3A%2F%2F");
        assertThat(provider().supportsPkce()).isTrue();
    }

    @Test
    void codeIsExchangedWithTheVerifierAndTheSubjectComesFromTheIdToken() {
        fake.server()
                .stubFor(post(urlPathEqualTo("/oauth/token")).willReturn(okJson("""
                {"access_token":"ya29.new","expires_in":3599,"refresh_token":"1//new","token_type":"Bearer",
                 "scope":"openid https://www.googleapis.com/auth/youtube.upload","id_token":"%s"}""".formatted(idToken("sub-42")))));

        ProviderGrant grant = await(provider().exchangeCode("4/code", "verifier-xyz", redirect()));

        assertThat(grant.accessToken()).isEqualTo("ya29.new");
        assertThat(grant.refreshToken()).isEqualTo("1//new");
        assertThat(grant.subject()).isEqualTo("sub-42");
        assertThat(grant.scopes())
                .containsExactlyInAnyOrder("openid", "https://www.googleapis.com/auth/youtube.upload");
        fake.server()
                .verify(postRequestedFor(urlPathEqualTo("/oauth/token"))
                        .withFormParam("code", equalTo("4/code"))
                        .withFormParam("code_verifier", equalTo("verifier-xyz"))
                        .withFormParam("client_id", equalTo(FakeProvider.CLIENT_ID))
                        .withFormParam("client_secret", equalTo(FakeProvider.CLIENT_SECRET))
                        .withFormParam("redirect_uri", equalTo(redirect().toString()))
                        .withFormParam("grant_type", equalTo("authorization_code")));
    }

    @Test
    void aRefreshWithoutANewRefreshTokenKeepsTheOldOne() {
        fake.server().stubFor(post(urlPathEqualTo("/oauth/token")).willReturn(okJson("""
                {"access_token":"ya29.fresh","expires_in":3599,"token_type":"Bearer"}""")));

        ProviderGrant refreshed = await(provider().refresh(grant()));

        assertThat(refreshed.accessToken()).isEqualTo("ya29.fresh");
        assertThat(refreshed.refreshToken()).isEqualTo("1//refresh");
        assertThat(refreshed.subject()).isEqualTo("google-sub-1");
        assertThat(refreshed.scopes()).isEqualTo(grant().scopes());
        fake.server()
                .verify(postRequestedFor(urlPathEqualTo("/oauth/token"))
                        .withFormParam("grant_type", equalTo("refresh_token"))
                        .withFormParam("refresh_token", equalTo("1//refresh"))
                        .withFormParam("code_verifier", absent()));
    }

    @Test
    void anExpiredOrRevokedRefreshTokenIsRevoked() {
        fake.server()
                .stubFor(
                        post(urlPathEqualTo("/oauth/token"))
                                .willReturn(
                                        aResponse()
                                                .withStatus(400)
                                                .withHeader("Content-Type", "application/json")
                                                .withBody(
                                                        "{\"error\":\"invalid_grant\",\"error_description\":\"Token has been expired or revoked.\"}")));

        ProviderException failure = failure(provider().refresh(grant()));

        assertThat(failure.code()).isEqualTo("invalid_grant");
        assertThat(failure.revoked()).isTrue();
        assertThat(failure.retryable()).isFalse();
    }

    @Test
    void revokingSendsTheRefreshTokenAndAnAlreadyDeadTokenCountsAsRevoked() {
        fake.server()
                .stubFor(post(urlPathEqualTo("/oauth/revoke"))
                        .willReturn(aResponse().withStatus(200)));
        await(provider().revoke(grant()));
        fake.server()
                .verify(postRequestedFor(urlPathEqualTo("/oauth/revoke"))
                        .withFormParam("token", equalTo("1//refresh")));

        fake.server()
                .stubFor(
                        post(urlPathEqualTo("/oauth/revoke"))
                                .willReturn(
                                        aResponse()
                                                .withStatus(400)
                                                .withHeader("Content-Type", "application/json")
                                                .withBody(
                                                        "{\"error\":\"invalid_token\",\"error_description\":\"Token expired or revoked\"}")));
        await(provider().revoke(grant()));

        fake.server()
                .stubFor(post(urlPathEqualTo("/oauth/revoke"))
                        .willReturn(aResponse().withStatus(503)));
        assertThat(failure(provider().revoke(grant())).retryable()).isTrue();
    }

    @Test
    void identitiesAreTheUsersChannels() {
        fake.server().stubFor(get(urlPathEqualTo("/youtube/v3/channels")).willReturn(okJson("""
                {"kind":"youtube#channelListResponse","items":[
                  {"id":"UC111","snippet":{"title":"Ana Cooks","customUrl":"@anacooks"}},
                  {"id":"UC222","snippet":{"title":"Ana Travels"}}]}""")));

        var identities = await(provider().identities(grant()));

        assertThat(identities)
                .containsExactly(
                        new ProviderIdentity("UC111", "channel", "Ana Cooks", "@anacooks", null),
                        new ProviderIdentity("UC222", "channel", "Ana Travels", null, null));
        fake.server()
                .verify(getRequestedFor(urlPathEqualTo("/youtube/v3/channels"))
                        .withQueryParam("part", equalTo("snippet"))
                        .withQueryParam("mine", equalTo("true"))
                        .withHeader("Authorization", equalTo("Bearer ya29.old")));
    }

    @Test
    void quotaExhaustionIsRetryableAndAnUnauthenticatedTokenIsRevoked() {
        fake.server()
                .stubFor(get(urlPathEqualTo("/youtube/v3/channels"))
                        .willReturn(aResponse()
                                .withStatus(403)
                                .withHeader("Content-Type", "application/json")
                                .withBody("""
                {"error":{"code":403,"message":"quota","errors":[{"reason":"quotaExceeded","domain":"youtube.quota"}]}}""")));
        ProviderException quota = failure(provider().identities(grant()));

        fake.server()
                .stubFor(get(urlPathEqualTo("/youtube/v3/channels"))
                        .willReturn(aResponse()
                                .withStatus(401)
                                .withHeader("Content-Type", "application/json")
                                .withBody("""
                {"error":{"code":401,"message":"Invalid Credentials","errors":[{"reason":"authError"}],"status":"UNAUTHENTICATED"}}""")));
        ProviderException unauthenticated = failure(provider().identities(grant()));

        assertThat(quota.code()).isEqualTo("quotaExceeded");
        assertThat(quota.retryable()).isTrue();
        assertThat(quota.revoked()).isFalse();
        assertThat(unauthenticated.code()).isEqualTo("authError");
        assertThat(unauthenticated.revoked()).isTrue();
    }

    @Test
    void withoutClientCredentialsTheProviderRefusesClearly() {
        YouTubeOAuthProvider unconfigured =
                new YouTubeOAuthProvider(fake.unconfigured(), fake.http(fake.unconfigured()));

        assertThatThrownBy(() -> unconfigured.authorizationUrl(new AuthorizationRequest("s", "c", redirect())))
                .isInstanceOfSatisfying(
                        ProviderException.class, e -> assertThat(e.code()).isEqualTo("provider_not_configured"));
        assertThat(failure(unconfigured.revoke(grant())).code()).isEqualTo("provider_not_configured");
    }

    @Test
    void aForbiddenAnswerWithoutGooglesErrorListIsAnApiRefusalNamedByItsStatus() {
        ProviderException failure =
                YouTubeOAuthProvider.apiFailure(new ProviderResponse(403, "<html><body>Forbidden</body></html>"));

        assertThat(failure.code()).isEqualTo("http_403");
        assertThat(failure.retryable()).isFalse();
        assertThat(failure.revoked()).isFalse();
    }
}
