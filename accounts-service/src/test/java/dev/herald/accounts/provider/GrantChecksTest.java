package dev.herald.accounts.provider;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static dev.herald.accounts.provider.FakeProvider.await;
import static dev.herald.accounts.provider.FakeProvider.failure;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.client.MappingBuilder;
import dev.herald.accounts.provider.facebook.FacebookOAuthProvider;
import dev.herald.accounts.provider.instagram.InstagramOAuthProvider;
import dev.herald.accounts.provider.linkedin.LinkedInOAuthProvider;
import dev.herald.accounts.provider.pinterest.PinterestOAuthProvider;
import dev.herald.accounts.provider.tiktok.TikTokOAuthProvider;
import dev.herald.accounts.provider.youtube.YouTubeOAuthProvider;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Each platform's health check ({@link OAuthProvider#check}) against its documented answers: a live grant passes, a
 * dead token or a withdrawn permission is definitive ({@code revoked}, with the platform's own code), 5xx and 429 are
 * temporary ({@code retryable}).
 */
class GrantChecksTest {
    @RegisterExtension
    static final FakeProvider fake = new FakeProvider();

    private static final ProviderGrant GRANT =
            new ProviderGrant("tok-1", "ref-1", Instant.now().plusSeconds(3600), null, Set.of(), "sub-1");

    private static final String CHANNEL = "UCabc";
    private static final String PAGE = "1080";
    private static final String IG_USER = "1784";
    private static final String PIN_ACCOUNT = "1125";
    private static final String MEMBER = "urn:li:person:abc";

    private void stub(MappingBuilder mapping) {
        fake.server().stubFor(mapping);
    }

    private static void assertDefinitive(ProviderException failure, String code) {
        assertThat(failure.revoked()).as("definitive: %s", failure.getMessage()).isTrue();
        assertThat(failure.retryable()).isFalse();
        assertThat(failure.code()).isEqualTo(code);
        assertThat(failure.getMessage()).contains(code);
    }

    private static void assertTemporary(ProviderException failure) {
        assertThat(failure.retryable())
                .as("temporary: %s", failure.getMessage())
                .isTrue();
        assertThat(failure.revoked()).isFalse();
    }

    // TikTok: creator_info/query

    private TikTokOAuthProvider tiktok() {
        return new TikTokOAuthProvider(fake.config(), fake.http(fake.config()));
    }

    private void tiktokAnswers(int status, String code) {
        stub(post(urlPathEqualTo("/v2/post/publish/creator_info/query/"))
                .willReturn(aResponse()
                        .withStatus(status)
                        .withHeader("Content-Type", "application/json")
                        .withBody("{\"data\":{},\"error\":{\"code\":\"" + code
                                + "\",\"message\":\"m\",\"log_id\":\"l\"}}")));
    }

    @Test
    void tiktokCheckReadsCreatorInfoAndClassifiesTheEnvelopesCode() {
        tiktokAnswers(200, "ok");
        await(tiktok().check(GRANT, "open-1"));

        tiktokAnswers(401, "access_token_invalid");
        assertDefinitive(failure(tiktok().check(GRANT, "open-1")), "access_token_invalid");
        tiktokAnswers(403, "scope_not_authorized");
        assertDefinitive(failure(tiktok().check(GRANT, "open-1")), "scope_not_authorized");
        tiktokAnswers(429, "rate_limit_exceeded");
        assertTemporary(failure(tiktok().check(GRANT, "open-1")));
        tiktokAnswers(500, "internal_error");
        assertTemporary(failure(tiktok().check(GRANT, "open-1")));
    }

    // YouTube: tokeninfo, then channels.list mine

    private YouTubeOAuthProvider youtube() {
        return new YouTubeOAuthProvider(fake.config(), fake.http(fake.config()));
    }

    private void youtubeScopes(String scope) {
        stub(get(urlPathEqualTo("/oauth/tokeninfo"))
                .willReturn(okJson("{\"scope\":\"" + scope + "\",\"expires_in\":\"3000\"}")));
    }

    private void youtubeChannels(String id) {
        stub(get(urlPathEqualTo("/youtube/v3/channels")).willReturn(okJson("{\"items\":[{\"id\":\"" + id + "\"}]}")));
    }

    @Test
    void youtubeCheckNeedsTheUploadScopeAndTheChannel() {
        youtubeScopes("openid https://www.googleapis.com/auth/youtube.upload");
        youtubeChannels(CHANNEL);
        await(youtube().check(GRANT, CHANNEL));

        assertDefinitive(failure(youtube().check(GRANT, "UCother")), "account_not_found");
        youtubeScopes("openid https://www.googleapis.com/auth/youtube.readonly");
        assertDefinitive(failure(youtube().check(GRANT, CHANNEL)), "permission_missing");
        stub(get(urlPathEqualTo("/oauth/tokeninfo"))
                .willReturn(aResponse()
                        .withStatus(400)
                        .withHeader("Content-Type", "application/json")
                        .withBody("{\"error\":\"invalid_token\",\"error_description\":\"Invalid Value\"}")));
        assertDefinitive(failure(youtube().check(GRANT, CHANNEL)), "invalid_token");
        stub(get(urlPathEqualTo("/oauth/tokeninfo")).willReturn(aResponse().withStatus(503)));
        assertTemporary(failure(youtube().check(GRANT, CHANNEL)));
    }

    // Facebook: the Page with its token, then /me/permissions

    private FacebookOAuthProvider facebook() {
        return new FacebookOAuthProvider(fake.config(), fake.http(fake.config()));
    }

    private void facebookPermissions(String... granted) {
        StringBuilder data = new StringBuilder();
        for (String permission : granted) {
            data.append(data.isEmpty() ? "" : ",")
                    .append("{\"permission\":\"")
                    .append(permission)
                    .append("\",\"status\":\"granted\"}");
        }
        stub(get(urlPathEqualTo("/me/permissions")).willReturn(okJson("{\"data\":[" + data + "]}")));
    }

    private void graphError(String path, int status, int code, boolean transientError) {
        stub(get(urlPathEqualTo(path))
                .willReturn(aResponse()
                        .withStatus(status)
                        .withHeader("Content-Type", "application/json")
                        .withBody(
                                "{\"error\":{\"message\":\"Error validating access token\",\"type\":\"OAuthException\","
                                        + "\"code\":" + code + ",\"is_transient\":" + transientError + "}}")));
    }

    @Test
    void facebookCheckReadsThePageAndItsPublishingPermissions() {
        stub(get(urlPathEqualTo("/" + PAGE)).willReturn(okJson("{\"id\":\"" + PAGE + "\"}")));
        facebookPermissions("pages_show_list", "pages_manage_posts", "pages_read_engagement");
        await(facebook().check(GRANT, PAGE));

        facebookPermissions("pages_show_list", "pages_read_engagement");
        assertDefinitive(failure(facebook().check(GRANT, PAGE)), "permission_missing");
        graphError("/" + PAGE, 400, 190, false);
        assertDefinitive(failure(facebook().check(GRANT, PAGE)), "graph_190");
        graphError("/" + PAGE, 400, 100, false);
        assertDefinitive(failure(facebook().check(GRANT, PAGE)), "account_not_found");
        graphError("/" + PAGE, 500, 2, true);
        assertTemporary(failure(facebook().check(GRANT, PAGE)));
    }

    // Instagram: content_publishing_limit

    private InstagramOAuthProvider instagram() {
        return new InstagramOAuthProvider(fake.config(), fake.http(fake.config()));
    }

    @Test
    void instagramCheckReadsThePublishingLimitWhichNeedsThePublishPermission() {
        String path = "/v24.0/" + IG_USER + "/content_publishing_limit";
        stub(get(urlPathEqualTo(path)).willReturn(okJson("{\"data\":[{\"quota_usage\":1}]}")));
        await(instagram().check(GRANT, IG_USER));

        graphError(path, 403, 10, false);
        assertDefinitive(failure(instagram().check(GRANT, IG_USER)), "graph_10");
        graphError(path, 400, 190, false);
        assertDefinitive(failure(instagram().check(GRANT, IG_USER)), "graph_190");
        graphError(path, 400, 4, false);
        assertTemporary(failure(instagram().check(GRANT, IG_USER)));
    }

    // Pinterest: user_account

    private PinterestOAuthProvider pinterest() {
        return new PinterestOAuthProvider(fake.config(), fake.http(fake.config()));
    }

    private void pinterestAnswers(int status, String body) {
        stub(get(urlPathEqualTo("/v5/user_account"))
                .willReturn(aResponse()
                        .withStatus(status)
                        .withHeader("Content-Type", "application/json")
                        .withBody(body)));
    }

    @Test
    void pinterestCheckReadsTheUserAccount() {
        pinterestAnswers(200, "{\"id\":\"" + PIN_ACCOUNT + "\",\"username\":\"kitchen\"}");
        await(pinterest().check(GRANT, PIN_ACCOUNT));

        assertDefinitive(failure(pinterest().check(GRANT, "999")), "account_not_found");
        pinterestAnswers(401, "{\"code\":2,\"message\":\"Authentication failed.\"}");
        assertDefinitive(failure(pinterest().check(GRANT, PIN_ACCOUNT)), "pinterest_2");
        pinterestAnswers(403, "{\"code\":29,\"message\":\"You are not permitted to access that resource.\"}");
        assertDefinitive(failure(pinterest().check(GRANT, PIN_ACCOUNT)), "pinterest_29");
        pinterestAnswers(429, "{\"code\":8,\"message\":\"Rate limited.\"}");
        assertTemporary(failure(pinterest().check(GRANT, PIN_ACCOUNT)));
    }

    // LinkedIn: token introspection

    private LinkedInOAuthProvider linkedin() {
        return new LinkedInOAuthProvider(fake.config(), fake.http(fake.config()));
    }

    private void introspection(String body) {
        stub(post(urlPathEqualTo("/oauth/introspectToken")).willReturn(okJson(body)));
    }

    @Test
    void linkedinCheckIntrospectsTheTokenForItsStatusAndScope() {
        introspection("{\"active\":true,\"status\":\"active\",\"scope\":\"openid,profile,w_member_social\"}");
        await(linkedin().check(GRANT, MEMBER));

        assertDefinitive(failure(linkedin().check(GRANT, "urn:li:organization:42")), "permission_missing");
        introspection("{\"active\":false,\"status\":\"revoked\"}");
        assertDefinitive(failure(linkedin().check(GRANT, MEMBER)), "token_revoked");
        stub(post(urlPathEqualTo("/oauth/introspectToken"))
                .willReturn(aResponse().withStatus(502)));
        assertTemporary(failure(linkedin().check(GRANT, MEMBER)));
    }

    @Test
    void anUnreachablePlatformIsATemporaryFailure() {
        // Port 1 on loopback: nothing listens, the connection is refused.
        var config = fake.config(Map.of("herald.providers.tiktok.api-url", "http://127.0.0.1:1"));
        assertTemporary(failure(new TikTokOAuthProvider(config, fake.http(config)).check(GRANT, "open-1")));
    }
}
