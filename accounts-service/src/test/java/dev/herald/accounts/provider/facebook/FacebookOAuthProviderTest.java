package dev.herald.accounts.provider.facebook;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.delete;
import static com.github.tomakehurst.wiremock.client.WireMock.deleteRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
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

class FacebookOAuthProviderTest {
    @RegisterExtension
    static final FakeProvider fake = new FakeProvider();

    private FacebookOAuthProvider provider() {
        return new FacebookOAuthProvider(fake.config(), fake.http(fake.config()));
    }

    private static ProviderGrant grant(Instant expiresAt) {
        return new ProviderGrant("EAA.long", null, expiresAt, null, Set.of("pages_show_list"), "fb-user-1");
    }

    private static String graphError(int code, String message) {
        return "{\"error\":{\"message\":\"" + message + "\",\"type\":\"OAuthException\",\"code\":" + code
                + ",\"fbtrace_id\":\"x\"}}";
    }

    @Test
    void theLoginDialogAsksForPagePermissions() {
        var url = provider().authorizationUrl(new AuthorizationRequest("state-1", null, redirect()));

        assertThat(url.toString()).startsWith(fake.url() + "/facebook/authorize?");
        assertThat(query(url))
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        "client_id",
                        FakeProvider.CLIENT_ID,
                        "redirect_uri",
                        redirect().toString(),
                        "state",
                        "state-1",
                        "response_type",
                        "code",
                        "scope",
                        "pages_show_list,pages_read_engagement,pages_manage_posts,read_insights,pages_read_user_content,"
                                + "pages_manage_engagement"));
    }

    @Test
    void theCodeBecomesALongLivedUserTokenWithItsGrantedPermissions() {
        fake.server()
                .stubFor(get(urlPathEqualTo("/oauth/access_token"))
                        .withQueryParam("code", equalTo("code-1"))
                        .willReturn(okJson(
                                "{\"access_token\":\"EAA.short\",\"token_type\":\"bearer\",\"expires_in\":3600}")));
        fake.server()
                .stubFor(get(urlPathEqualTo("/oauth/access_token"))
                        .withQueryParam("grant_type", equalTo("fb_exchange_token"))
                        .withQueryParam("fb_exchange_token", equalTo("EAA.short"))
                        .withQueryParam("client_id", equalTo(FakeProvider.CLIENT_ID))
                        .withQueryParam("client_secret", equalTo(FakeProvider.CLIENT_SECRET))
                        .willReturn(okJson(
                                "{\"access_token\":\"EAA.long\",\"token_type\":\"bearer\",\"expires_in\":5183944}")));
        fake.server()
                .stubFor(get(urlPathEqualTo("/me"))
                        .withHeader("Authorization", equalTo("Bearer EAA.long"))
                        .willReturn(okJson("""
                {"id":"fb-user-1","permissions":{"data":[{"permission":"pages_show_list","status":"granted"},
                 {"permission":"pages_manage_posts","status":"declined"}]}}""")));

        ProviderGrant grant = await(provider().exchangeCode("code-1", null, redirect()));

        assertThat(grant.accessToken()).isEqualTo("EAA.long");
        assertThat(grant.refreshToken()).isNull();
        assertThat(grant.subject()).isEqualTo("fb-user-1");
        assertThat(grant.scopes()).containsExactly("pages_show_list");
        assertThat(grant.expiresAt()).isCloseTo(Instant.now().plusSeconds(5183944), within(30, ChronoUnit.SECONDS));
        fake.server()
                .verify(com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor(
                                urlPathEqualTo("/oauth/access_token"))
                        .withQueryParam("code", equalTo("code-1"))
                        .withQueryParam("redirect_uri", equalTo(redirect().toString()))
                        .withQueryParam("client_secret", equalTo(FakeProvider.CLIENT_SECRET)));
    }

    @Test
    void thePagesComeWithTheirPageTokensAcrossPages() {
        fake.server()
                .stubFor(get(urlPathEqualTo("/me/accounts"))
                        .withQueryParam("after", absent())
                        .willReturn(okJson("""
                {"data":[{"id":"p1","name":"Ana's Bakery","username":"anasbakery","access_token":"EAA.page1"}],
                 "paging":{"cursors":{"after":"CUR"},"next":"%s/me/accounts?after=CUR&limit=100"}}""".formatted(fake.url()))));
        fake.server()
                .stubFor(get(urlPathEqualTo("/me/accounts"))
                        .withQueryParam("after", equalTo("CUR"))
                        .willReturn(okJson("""
                {"data":[{"id":"p2","name":"Ana's Cafe","access_token":"EAA.page2"}],"paging":{"cursors":{"before":"CUR"}}}""")));

        var identities = await(provider().identities(grant(null)));

        assertThat(identities)
                .containsExactly(
                        new ProviderIdentity("p1", "page", "Ana's Bakery", "anasbakery", "EAA.page1"),
                        new ProviderIdentity("p2", "page", "Ana's Cafe", null, "EAA.page2"));
        assertThat(identities.get(0).toString()).doesNotContain("EAA.page1");
        fake.server()
                .verify(
                        2,
                        com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor(urlPathEqualTo("/me/accounts"))
                                .withHeader("Authorization", equalTo("Bearer EAA.long")));
    }

    @Test
    void eachPageIsConnectedWithItsOwnPageTokenWhichNeverExpires() {
        ProviderGrant user = grant(java.time.Instant.parse("2027-01-20T00:00:00Z"));
        ProviderIdentity page = new ProviderIdentity("p1", "page", "Ana's Bakery", "anasbakery", "EAA.page1");

        ProviderGrant pages = user.forIdentity(page);

        assertThat(pages)
                .isEqualTo(new ProviderGrant("EAA.page1", null, null, null, Set.of("pages_show_list"), "fb-user-1"));
        // An identity without a token of its own (a LinkedIn organization, say) acts with the grant itself.
        assertThat(user.forIdentity(new ProviderIdentity("urn:li:organization:1", "organization", "Org", null, null)))
                .isSameAs(user);
    }

    @Test
    void aNextPageOnAnotherHostIsNotFollowedWithTheUsersToken() {
        fake.server().stubFor(get(urlPathEqualTo("/me/accounts")).willReturn(okJson("""
                {"data":[{"id":"p1","name":"Ana's Bakery","access_token":"EAA.page1"}],
                 "paging":{"next":"https://collector.example/me/accounts?after=CUR"}}""")));

        var identities = await(provider().identities(grant(null)));

        assertThat(identities).extracting(ProviderIdentity::externalId).containsExactly("p1");
        fake.server()
                .verify(
                        1,
                        com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor(
                                urlPathEqualTo("/me/accounts")));
    }

    @Test
    void anInvalidatedSessionIsRevokedAndRateLimitsAreRetryable() {
        fake.server()
                .stubFor(get(urlPathEqualTo("/me/accounts"))
                        .willReturn(aResponse()
                                .withStatus(400)
                                .withHeader("Content-Type", "application/json")
                                .withBody(graphError(190, "Error validating access token"))));
        ProviderException revoked = failure(provider().identities(grant(null)));

        fake.server()
                .stubFor(get(urlPathEqualTo("/me/accounts"))
                        .willReturn(aResponse()
                                .withStatus(400)
                                .withHeader("Content-Type", "application/json")
                                .withBody(graphError(4, "Application request limit reached"))));
        ProviderException limited = failure(provider().identities(grant(null)));

        assertThat(revoked.code()).isEqualTo("graph_190");
        assertThat(revoked.revoked()).isTrue();
        assertThat(revoked.retryable()).isFalse();
        assertThat(limited.code()).isEqualTo("graph_4");
        assertThat(limited.retryable()).isTrue();
        assertThat(limited.revoked()).isFalse();
    }

    @Test
    void revokingDeletesThePermissionsAndAnInvalidTokenHasNothingLeft() {
        fake.server().stubFor(delete(urlPathEqualTo("/me/permissions")).willReturn(okJson("{\"success\":true}")));
        await(provider().revoke(grant(null)));
        fake.server()
                .verify(deleteRequestedFor(urlPathEqualTo("/me/permissions"))
                        .withHeader("Authorization", equalTo("Bearer EAA.long")));

        fake.server()
                .stubFor(delete(urlPathEqualTo("/me/permissions"))
                        .willReturn(aResponse()
                                .withStatus(400)
                                .withHeader("Content-Type", "application/json")
                                .withBody(graphError(190, "Session has expired"))));
        await(provider().revoke(grant(null)));
    }

    @Test
    void withoutRefreshTokensAnUnexpiredGrantStandsAndAnExpiredOneNeedsReconnecting() {
        ProviderGrant current = grant(Instant.now().plusSeconds(3600));
        assertThat(await(provider().refresh(current))).isSameAs(current);

        ProviderException expired =
                failure(provider().refresh(grant(Instant.now().minusSeconds(1))));
        assertThat(expired.code()).isEqualTo("token_expired");
        assertThat(expired.revoked()).isTrue();
        assertThat(fake.server().getAllServeEvents()).isEmpty();
    }

    @Test
    void withoutClientCredentialsNoUrlIsBuilt() {
        var unconfigured = new FacebookOAuthProvider(fake.unconfigured(), fake.http(fake.unconfigured()));

        assertThat(org.assertj.core.api.Assertions.catchThrowableOfType(
                                ProviderException.class,
                                () -> unconfigured.authorizationUrl(new AuthorizationRequest("s", null, redirect())))
                        .code())
                .isEqualTo("provider_not_configured");
        assertThat(failure(unconfigured.exchangeCode("c", null, redirect())).code())
                .isEqualTo("provider_not_configured");
    }
}
