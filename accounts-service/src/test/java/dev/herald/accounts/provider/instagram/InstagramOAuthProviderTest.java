package dev.herald.accounts.provider.instagram;

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

class InstagramOAuthProviderTest {
    @RegisterExtension
    static final FakeProvider fake = new FakeProvider();

    private InstagramOAuthProvider provider() {
        return new InstagramOAuthProvider(fake.config(), fake.http(fake.config()));
    }

    private static ProviderGrant grant() {
        return new ProviderGrant(
                "IGAA.long",
                null,
                Instant.now().plusSeconds(86400),
                null,
                Set.of("instagram_business_basic"),
                "17841400000000001");
    }

    @Test
    void businessLoginAsksForBasicAndPublishing() {
        var url = provider().authorizationUrl(new AuthorizationRequest("state-1", null, redirect()));

        assertThat(url.toString()).startsWith(fake.url() + "/instagram/authorize?");
        assertThat(query(url))
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        "client_id",
                        FakeProvider.CLIENT_ID,
                        "redirect_uri",
                        redirect().toString(),
                        "response_type",
                        "code",
                        "scope",
                        "instagram_business_basic,instagram_business_content_publish,instagram_business_manage_insights,"
                                + "instagram_business_manage_comments",
                        "state",
                        "state-1"));
    }

    @Test
    void theCodeBecomesASixtyDayTokenForTheProfessionalAccount() {
        fake.server().stubFor(post(urlPathEqualTo("/oauth/oauth/access_token")).willReturn(okJson("""
                {"data":[{"access_token":"IGAA.short","user_id":17841400000000001,
                  "permissions":"instagram_business_basic,instagram_business_content_publish"}]}""")));
        fake.server()
                .stubFor(get(urlPathEqualTo("/access_token"))
                        .withQueryParam("grant_type", equalTo("ig_exchange_token"))
                        .withQueryParam("access_token", equalTo("IGAA.short"))
                        .withQueryParam("client_secret", equalTo(FakeProvider.CLIENT_SECRET))
                        .willReturn(okJson(
                                "{\"access_token\":\"IGAA.long\",\"token_type\":\"bearer\",\"expires_in\":5183944}")));

        ProviderGrant grant = await(provider().exchangeCode("code-1", null, redirect()));

        assertThat(grant.accessToken()).isEqualTo("IGAA.long");
        assertThat(grant.refreshToken()).isNull();
        assertThat(grant.subject()).isEqualTo("17841400000000001");
        assertThat(grant.scopes())
                .containsExactlyInAnyOrder("instagram_business_basic", "instagram_business_content_publish");
        assertThat(grant.expiresAt()).isCloseTo(Instant.now().plusSeconds(5183944), within(30, ChronoUnit.SECONDS));
        fake.server()
                .verify(postRequestedFor(urlPathEqualTo("/oauth/oauth/access_token"))
                        .withFormParam("client_id", equalTo(FakeProvider.CLIENT_ID))
                        .withFormParam("client_secret", equalTo(FakeProvider.CLIENT_SECRET))
                        .withFormParam("grant_type", equalTo("authorization_code"))
                        .withFormParam("redirect_uri", equalTo(redirect().toString()))
                        .withFormParam("code", equalTo("code-1")));
    }

    @Test
    void refreshRenewsTheLongLivedTokenItself() {
        fake.server()
                .stubFor(
                        get(urlPathEqualTo("/refresh_access_token"))
                                .withQueryParam("grant_type", equalTo("ig_refresh_token"))
                                .withQueryParam("access_token", equalTo("IGAA.long"))
                                .willReturn(
                                        okJson(
                                                "{\"access_token\":\"IGAA.renewed\",\"token_type\":\"bearer\",\"expires_in\":5183944}")));

        ProviderGrant renewed = await(provider().refresh(grant()));

        assertThat(renewed.accessToken()).isEqualTo("IGAA.renewed");
        assertThat(renewed.subject()).isEqualTo("17841400000000001");
        assertThat(renewed.scopes()).containsExactly("instagram_business_basic");
    }

    @Test
    void aTokenThatCanNoLongerBeRenewedMeansReconnecting() {
        fake.server()
                .stubFor(get(urlPathEqualTo("/refresh_access_token"))
                        .willReturn(aResponse()
                                .withStatus(400)
                                .withHeader("Content-Type", "application/json")
                                .withBody("""
                {"error":{"message":"Error validating access token","type":"OAuthException","code":190}}""")));

        ProviderException failure = failure(provider().refresh(grant()));

        assertThat(failure.revoked()).isTrue();
        assertThat(failure.retryable()).isFalse();
    }

    @Test
    void theIdentityIsTheProfessionalAccount() {
        fake.server().stubFor(get(urlPathEqualTo("/v24.0/me")).willReturn(okJson("""
                {"id":"app-scoped-9","user_id":"17841400000000001","username":"ana.bakes","name":"Ana",
                 "account_type":"BUSINESS"}""")));

        var identities = await(provider().identities(grant()));

        assertThat(identities)
                .containsExactly(
                        new ProviderIdentity("17841400000000001", "instagram_business", "Ana", "ana.bakes", null));
        fake.server()
                .verify(getRequestedFor(urlPathEqualTo("/v24.0/me"))
                        .withQueryParam("access_token", equalTo("IGAA.long")));
    }

    @Test
    void aServerErrorIsRetryable() {
        fake.server()
                .stubFor(get(urlPathEqualTo("/v24.0/me"))
                        .willReturn(aResponse()
                                .withStatus(500)
                                .withHeader("Content-Type", "application/json")
                                .withBody("""
                {"error":{"message":"An unknown error occurred","type":"OAuthException","code":1,"is_transient":true}}""")));

        ProviderException failure = failure(provider().identities(grant()));

        assertThat(failure.retryable()).isTrue();
        assertThat(failure.revoked()).isFalse();
    }

    @Test
    void aRefusedCodeIsNeitherRevokedNorRetryable() {
        fake.server()
                .stubFor(
                        post(urlPathEqualTo("/oauth/oauth/access_token"))
                                .willReturn(
                                        aResponse()
                                                .withStatus(400)
                                                .withHeader("Content-Type", "application/json")
                                                .withBody(
                                                        "{\"error_type\":\"OAuthException\",\"code\":400,\"error_message\":\"Invalid authorization code\"}")));

        ProviderException failure = failure(provider().exchangeCode("stale", null, redirect()));

        assertThat(failure.code()).isEqualTo("OAuthException");
        assertThat(failure.getMessage()).contains("Invalid authorization code");
        assertThat(failure.revoked()).isFalse();
        assertThat(failure.retryable()).isFalse();
    }

    @Test
    void revokingHasNoEndpointAndCallsNothing() {
        await(provider().revoke(grant()));

        assertThat(fake.server().getAllServeEvents()).isEmpty();
    }
}
