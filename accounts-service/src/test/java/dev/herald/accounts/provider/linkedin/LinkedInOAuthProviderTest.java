package dev.herald.accounts.provider.linkedin;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
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

class LinkedInOAuthProviderTest {
    @RegisterExtension
    static final FakeProvider fake = new FakeProvider();

    private LinkedInOAuthProvider provider() {
        return new LinkedInOAuthProvider(fake.config(), fake.http(fake.config()));
    }

    private static ProviderGrant grant(Set<String> scopes) {
        return new ProviderGrant("AQV.member", null, Instant.now().plusSeconds(3600), null, scopes, "782bbtaQ");
    }

    @Test
    void authorizationAsksForTheMemberAndOrganizationScopes() {
        var url = provider().authorizationUrl(new AuthorizationRequest("state-1", "ignored", redirect()));

        assertThat(url.toString()).startsWith(fake.url() + "/linkedin/authorize?");
        assertThat(query(url))
                .containsExactlyInAnyOrderEntriesOf(
                        Map.of(
                                "response_type",
                                "code",
                                "client_id",
                                FakeProvider.CLIENT_ID,
                                "redirect_uri",
                                redirect().toString(),
                                "state",
                                "state-1",
                                "scope",
                                "openid profile w_member_social r_organization_admin w_organization_social r_organization_social"));
    }

    @Test
    void theCodeIsExchangedAndTheMemberComesFromTheIdToken() {
        String claims = Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString("{\"sub\":\"782bbtaQ\",\"name\":\"Ana\"}".getBytes(StandardCharsets.UTF_8));
        fake.server().stubFor(post(urlPathEqualTo("/oauth/accessToken")).willReturn(okJson("""
                {"access_token":"AQV.member","expires_in":5184000,"scope":"openid,profile,w_member_social",
                 "token_type":"Bearer","id_token":"eyJhbGciOiJSUzI1NiJ9.%s.sig"}""".formatted(claims))));

        ProviderGrant grant = await(provider().exchangeCode("code-1", null, redirect()));

        assertThat(grant.accessToken()).isEqualTo("AQV.member");
        assertThat(grant.refreshToken()).isNull();
        assertThat(grant.subject()).isEqualTo("782bbtaQ");
        assertThat(grant.scopes()).containsExactlyInAnyOrder("openid", "profile", "w_member_social");
        fake.server()
                .verify(postRequestedFor(urlPathEqualTo("/oauth/accessToken"))
                        .withFormParam("grant_type", equalTo("authorization_code"))
                        .withFormParam("code", equalTo("code-1"))
                        .withFormParam("client_id", equalTo(FakeProvider.CLIENT_ID))
                        .withFormParam("client_secret", equalTo(FakeProvider.CLIENT_SECRET))
                        .withFormParam("redirect_uri", equalTo(redirect().toString())));
    }

    @Test
    void identitiesAreTheMemberAndTheOrganizationsTheyAdminister() {
        fake.server().stubFor(get(urlPathEqualTo("/v2/userinfo")).willReturn(okJson("""
                {"sub":"782bbtaQ","name":"Ana Lima","given_name":"Ana","family_name":"Lima"}""")));
        fake.server().stubFor(get(urlPathEqualTo("/rest/organizationAcls")).willReturn(okJson("""
                {"paging":{"count":100,"start":0},"elements":[
                  {"role":"ADMINISTRATOR","organization":"urn:li:organization:2414183","state":"APPROVED",
                   "roleAssignee":"urn:li:person:782bbtaQ"}]}""")));
        fake.server().stubFor(get(urlPathEqualTo("/rest/organizations/2414183")).willReturn(okJson("""
                {"id":2414183,"localizedName":"Ana's Bakery","vanityName":"anas-bakery"}""")));

        var identities = await(provider().identities(grant(Set.of("openid", "r_organization_admin"))));

        assertThat(identities)
                .containsExactly(
                        new ProviderIdentity("urn:li:person:782bbtaQ", "member", "Ana Lima", null, null),
                        new ProviderIdentity(
                                "urn:li:organization:2414183", "organization", "Ana's Bakery", "anas-bakery", null));
        fake.server()
                .verify(getRequestedFor(urlPathEqualTo("/rest/organizationAcls"))
                        .withQueryParam("q", equalTo("roleAssignee"))
                        .withQueryParam("role", equalTo("ADMINISTRATOR"))
                        .withQueryParam("state", equalTo("APPROVED"))
                        .withHeader("LinkedIn-Version", equalTo("202601"))
                        .withHeader("X-Restli-Protocol-Version", equalTo("2.0.0"))
                        .withHeader("Authorization", equalTo("Bearer AQV.member")));
        fake.server()
                .verify(getRequestedFor(urlPathEqualTo("/rest/organizations/2414183"))
                        .withHeader("LinkedIn-Version", equalTo("202601")));
    }

    @Test
    void withoutAnOrganizationScopeOnlyTheMemberIsAsked() {
        fake.server()
                .stubFor(get(urlPathEqualTo("/v2/userinfo"))
                        .willReturn(okJson("{\"sub\":\"782bbtaQ\",\"name\":\"Ana\"}")));

        var identities = await(provider().identities(grant(Set.of("openid", "w_member_social"))));

        assertThat(identities).extracting(ProviderIdentity::kind).containsExactly("member");
        fake.server().verify(0, getRequestedFor(urlPathMatching("/rest/.*")));
    }

    @Test
    void aRevokedTokenIsRevokedAndThrottlingIsRetryable() {
        fake.server()
                .stubFor(get(urlPathEqualTo("/v2/userinfo"))
                        .willReturn(aResponse()
                                .withStatus(401)
                                .withHeader("Content-Type", "application/json")
                                .withBody("""
                {"status":401,"serviceErrorCode":65601,"code":"REVOKED_ACCESS_TOKEN","message":"The token used in the request has been revoked by the user"}""")));
        ProviderException revoked = failure(provider().identities(grant(Set.of("openid"))));

        fake.server()
                .stubFor(get(urlPathEqualTo("/v2/userinfo"))
                        .willReturn(aResponse()
                                .withStatus(429)
                                .withHeader("Content-Type", "application/json")
                                .withBody("{\"status\":429,\"message\":\"Too many requests\"}")));
        ProviderException throttled = failure(provider().identities(grant(Set.of("openid"))));

        assertThat(revoked.code()).isEqualTo("REVOKED_ACCESS_TOKEN");
        assertThat(revoked.revoked()).isTrue();
        assertThat(throttled.retryable()).isTrue();
        assertThat(throttled.revoked()).isFalse();
    }

    @Test
    void revokingPostsTheTokenWithTheClientCredentials() {
        fake.server()
                .stubFor(post(urlPathEqualTo("/oauth/revoke"))
                        .willReturn(aResponse().withStatus(200)));

        await(provider().revoke(grant(Set.of())));

        fake.server()
                .verify(postRequestedFor(urlPathEqualTo("/oauth/revoke"))
                        .withFormParam("token", equalTo("AQV.member"))
                        .withFormParam("client_id", equalTo(FakeProvider.CLIENT_ID))
                        .withFormParam("client_secret", equalTo(FakeProvider.CLIENT_SECRET)));
    }

    @Test
    void partnerRefreshTokensAreUsedWhenIssued() {
        fake.server().stubFor(post(urlPathEqualTo("/oauth/accessToken")).willReturn(okJson("""
                {"access_token":"AQV.2","expires_in":5184000,"refresh_token":"AQX.2","refresh_token_expires_in":31536000}""")));
        ProviderGrant withRefresh =
                new ProviderGrant("AQV.1", "AQX.1", Instant.now(), null, Set.of("openid"), "782bbtaQ");

        ProviderGrant refreshed = await(provider().refresh(withRefresh));

        assertThat(refreshed.accessToken()).isEqualTo("AQV.2");
        assertThat(refreshed.refreshToken()).isEqualTo("AQX.2");
        assertThat(refreshed.subject()).isEqualTo("782bbtaQ");
        fake.server()
                .verify(postRequestedFor(urlPathEqualTo("/oauth/accessToken"))
                        .withFormParam("grant_type", equalTo("refresh_token"))
                        .withFormParam("refresh_token", equalTo("AQX.1")));
    }
}
