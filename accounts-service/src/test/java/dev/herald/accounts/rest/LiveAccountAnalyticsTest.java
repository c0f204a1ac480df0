package dev.herald.accounts.rest;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static dev.herald.accounts.support.AccountsTestSupport.as;
import static dev.herald.accounts.support.AccountsTestSupport.onVertx;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import com.github.tomakehurst.wiremock.client.WireMock;
import dev.herald.accounts.provider.ProviderGrant;
import dev.herald.accounts.service.AccountConnection;
import dev.herald.accounts.service.AccountConnections;
import dev.herald.accounts.support.AccountsTestSupport;
import dev.herald.accounts.support.FakeAnalyticsPlatforms;
import dev.herald.accounts.support.FakeServices;
import dev.herald.common.auth.Mode;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.common.wire.Platform;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Live account analytics against WireMock fakes of the platforms' documented endpoints. */
@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = AccountsTestSupport.DATABASE))
@WithTestResource(value = FakeServices.class, scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakeAnalyticsPlatforms.class, scope = TestResourceScope.MATCHING_RESOURCES)
class LiveAccountAnalyticsTest {
    private static final String CACHE = "x-herald-cache";

    @Inject
    AccountConnections connections;

    private WireMock fake;
    private String workspace;

    @BeforeEach
    void newWorkspace() {
        FakeServices.ensureStarted();
        fake = FakeAnalyticsPlatforms.client();
        workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
    }

    /** A live account connected with a token that is good for an hour. */
    private String live(Platform platform, String externalId, String accessToken) {
        ProviderGrant grant = new ProviderGrant(
                accessToken,
                "refresh-" + accessToken,
                Instant.now().plusSeconds(3600),
                null,
                Set.of("scope"),
                "subject-" + accessToken);
        return onVertx(() -> connections.connect(new AccountConnection(
                        workspace, Mode.LIVE, null, platform, externalId, "Live", "live", grant, null)))
                .id();
    }

    private int calls(String path) {
        return fake.find(anyRequestedFor(urlPathEqualTo(path))).size();
    }

    @Test
    void aPagesNumbersAreReadWithItsTokenOnceAndThenAnsweredFromTheCache() {
        String page = "55" + Long.toString(System.nanoTime()).substring(4);
        String account = live(Platform.FACEBOOK, page, "EAAG-" + page);
        fake.register(get(urlPathEqualTo("/fb/v24.0/" + page))
                .withHeader("Authorization", WireMock.equalTo("Bearer EAAG-" + page))
                .withQueryParam("fields", WireMock.equalTo("followers_count,fan_count"))
                .willReturn(okJson("{\"followers_count\":5120,\"fan_count\":4980,\"id\":\"" + page + "\"}")));

        String refreshedAt = as(workspace, Mode.LIVE)
                .get("/accounts/" + account + "/analytics")
                .then()
                .statusCode(200)
                .header(CACHE, nullValue())
                .body("data.object", equalTo("account_analytics"))
                .body("data.platform", equalTo("facebook"))
                .body("data.status", equalTo("available"))
                .body("data.metrics.followers", equalTo(5120))
                .body("data.metrics.likes", equalTo(4980))
                .body("data.metrics.views", nullValue())
                .body("data.raw.fan_count", equalTo(4980))
                .extract()
                .path("data.refreshed_at");
        as(workspace, Mode.LIVE)
                .get("/accounts/" + account + "/analytics")
                .then()
                .statusCode(200)
                .header(CACHE, equalTo("hit"))
                .body("data.metrics.followers", equalTo(5120))
                .body("data.refreshed_at", equalTo(refreshedAt));
        assertThat(calls("/fb/v24.0/" + page)).isEqualTo(1);
    }

    @Test
    void aPlatformFailureWithoutEarlierNumbersAnswersWhyAndIsFree() {
        String page = "66" + Long.toString(System.nanoTime()).substring(4);
        String account = live(Platform.FACEBOOK, page, "EAAG-" + page);
        fake.register(get(urlPathEqualTo("/fb/v24.0/" + page))
                .willReturn(aResponse()
                        .withStatus(500)
                        .withHeader("Content-Type", "application/json")
                        .withBody("""
                {"error":{"message":"An unknown error has occurred.","type":"OAuthException","code":1,"is_transient":true}}""")));

        as(workspace, Mode.LIVE)
                .get("/accounts/" + account + "/analytics")
                .then()
                .statusCode(200)
                .header(CACHE, equalTo("hit"))
                .body("data.status", equalTo("unavailable"))
                .body("data.reason", equalTo("provider_error"))
                .body("data.metrics", nullValue());
    }

    @Test
    void aYoutubeChannelWithoutConsentIsNeverAsked() {
        String channel = "UC" + Long.toString(System.nanoTime());
        String account = live(Platform.YOUTUBE, channel, "ya29-" + channel);

        as(workspace, Mode.LIVE)
                .get("/accounts/" + account + "/analytics")
                .then()
                .statusCode(200)
                .header(CACHE, equalTo("hit"))
                .body("data.status", equalTo("redacted"))
                .body("data.reason", equalTo("analytics_consent_required"));
        assertThat(fake.find(anyRequestedFor(urlPathEqualTo("/youtube/v3/channels"))
                        .withQueryParam("id", WireMock.equalTo(channel))))
                .isEmpty();
    }

    private void consents(String account) {
        as(workspace, Mode.LIVE)
                .body("{\"accepted\":true,\"policy_version\":\"2026-09-01\"}")
                .post("/accounts/" + account + "/analytics-consent")
                .then()
                .statusCode(200)
                .body("data.analytics_consent.status", equalTo("accepted"));
    }

    @Test
    void aConsentedYoutubeChannelsStatisticsAreReadWithItsToken() {
        String channel = "UC" + Long.toString(System.nanoTime());
        String account = live(Platform.YOUTUBE, channel, "ya29-" + channel);
        consents(account);
        fake.register(get(urlPathEqualTo("/youtube/v3/channels"))
                .withQueryParam("id", WireMock.equalTo(channel))
                .withQueryParam("part", WireMock.equalTo("statistics"))
                .withHeader("Authorization", WireMock.equalTo("Bearer ya29-" + channel))
                .willReturn(okJson("""
                        {"kind":"youtube#channelListResponse","items":[{"kind":"youtube#channel","id":"%s",
                          "statistics":{"viewCount":"3250000","subscriberCount":"41200","hiddenSubscriberCount":false,"videoCount":"318"}}]}""".formatted(channel))));

        as(workspace, Mode.LIVE)
                .get("/accounts/" + account + "/analytics")
                .then()
                .statusCode(200)
                .header(CACHE, nullValue())
                .body("data.status", equalTo("available"))
                .body("data.metrics.followers", equalTo(41200))
                .body("data.metrics.posts", equalTo(318))
                .body("data.metrics.views", equalTo(3250000))
                .body("data.metrics.following", nullValue())
                .body("data.raw.subscriberCount", equalTo("41200"));
    }

    @Test
    void aRefusedTokenThatCannotBeRenewedMakesTheAccountReauthRequiredAndTheReadIsFree() {
        String channel = "UC" + Long.toString(System.nanoTime());
        String account = live(Platform.YOUTUBE, channel, "ya29-dead-" + channel);
        consents(account);
        fake.register(get(urlPathEqualTo("/youtube/v3/channels"))
                .withQueryParam("id", WireMock.equalTo(channel))
                .willReturn(aResponse()
                        .withStatus(401)
                        .withHeader("Content-Type", "application/json")
                        .withBody("""
                        {"error":{"code":401,"message":"Request had invalid authentication credentials.","status":"UNAUTHENTICATED",
                          "errors":[{"message":"Invalid Credentials","domain":"global","reason":"authError"}]}}""")));

        // Google hands back the refused token on renewal: the grant is as good as revoked. The account stays connected
        // and needs reauthorization: reconnecting it through its link brings the numbers back.
        as(workspace, Mode.LIVE)
                .get("/accounts/" + account + "/analytics")
                .then()
                .statusCode(200)
                .header(CACHE, equalTo("hit"))
                .body("data.status", equalTo("unavailable"))
                .body("data.reason", equalTo("reconnect_required"));
        as(workspace, Mode.LIVE)
                .get("/accounts/" + account)
                .then()
                .statusCode(200)
                .body("data.status", equalTo("connected"))
                .body("data.health.status", equalTo("reauth_required"));
        assertThat(fake.find(anyRequestedFor(urlPathEqualTo("/youtube/v3/channels"))
                        .withQueryParam("id", WireMock.equalTo(channel))))
                .hasSize(1);
    }

    @Test
    void aLiveLinkedInAccountHasNoReaderAndThatIsFree() {
        String account = live(Platform.LINKEDIN, "urn:li:person:" + System.nanoTime(), "AQV-token");
        as(workspace, Mode.LIVE)
                .get("/accounts/" + account + "/analytics")
                .then()
                .statusCode(200)
                .header(CACHE, equalTo("hit"))
                .body("data.status", equalTo("unavailable"))
                .body("data.reason", equalTo("platform_not_supported"));
    }

    private static final String TIKTOK_FIELDS = "follower_count,following_count,likes_count,video_count";

    private static com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder tiktokError(
            String code, String message) {
        return aResponse()
                .withStatus(401)
                .withHeader("Content-Type", "application/json")
                .withBody("""
                {"data":{},"error":{"code":"%s","message":"%s","log_id":"202611251053AB"}}""".formatted(code, message));
    }

    @Test
    void aRefusedTikTokTokenIsRenewedOnceAndTheCreatorsCountsAreRead() {
        String openId = "-000open" + System.nanoTime();
        String account = live(Platform.TIKTOK, openId, "act.expired" + openId);
        fake.register(get(urlPathEqualTo("/tiktok/v2/user/info/"))
                .withHeader("Authorization", WireMock.equalTo("Bearer act.expired" + openId))
                .willReturn(tiktokError(
                        "access_token_invalid", "The access token is invalid or not found in the request.")));
        fake.register(post(urlPathEqualTo("/tiktok/v2/oauth/token/"))
                .withRequestBody(WireMock.containing("refresh_token=refresh-act.expired" + openId))
                .willReturn(okJson("""
                        {"access_token":"act.renewed%1$s","expires_in":86400,"open_id":"%1$s","refresh_expires_in":31536000,
                         "refresh_token":"rft.renewed%1$s","scope":"user.info.basic,user.info.stats,video.list","token_type":"Bearer"}""".formatted(openId))));
        fake.register(get(urlPathEqualTo("/tiktok/v2/user/info/"))
                .withHeader("Authorization", WireMock.equalTo("Bearer act.renewed" + openId))
                .withQueryParam("fields", WireMock.equalTo(TIKTOK_FIELDS))
                .willReturn(okJson("""
                        {"data":{"user":{"follower_count":5120,"following_count":87,"likes_count":40210,"video_count":64}},
                         "error":{"code":"ok","message":"","log_id":"202611251053AB"}}""")));

        as(workspace, Mode.LIVE)
                .get("/accounts/" + account + "/analytics")
                .then()
                .statusCode(200)
                .header(CACHE, nullValue())
                .body("data.status", equalTo("available"))
                .body("data.reason", nullValue())
                .body("data.metrics.followers", equalTo(5120))
                .body("data.metrics.following", equalTo(87))
                .body("data.metrics.posts", equalTo(64))
                .body("data.metrics.views", nullValue())
                .body("data.metrics.likes", equalTo(40210))
                .body("data.raw.likes_count", equalTo(40210));
        assertThat(fake.find(anyRequestedFor(urlPathEqualTo("/tiktok/v2/user/info/"))
                        .withHeader("Authorization", WireMock.equalTo("Bearer act.expired" + openId))))
                .hasSize(1);
        assertThat(fake.find(anyRequestedFor(urlPathEqualTo("/tiktok/v2/user/info/"))
                        .withHeader("Authorization", WireMock.equalTo("Bearer act.renewed" + openId))))
                .hasSize(1);
    }

    @Test
    void aTikTokGrantWithoutUserInfoStatsAsksForAReconnectionWithoutRenewingOrDisconnecting() {
        String openId = "-000old" + System.nanoTime();
        String account = live(Platform.TIKTOK, openId, "act.old" + openId);
        fake.register(get(urlPathEqualTo("/tiktok/v2/user/info/"))
                .withHeader("Authorization", WireMock.equalTo("Bearer act.old" + openId))
                .willReturn(tiktokError(
                        "scope_not_authorized",
                        "The user did not authorize the scope required for completing this request.")));

        as(workspace, Mode.LIVE)
                .get("/accounts/" + account + "/analytics")
                .then()
                .statusCode(200)
                .header(CACHE, equalTo("hit"))
                .body("data.status", equalTo("unavailable"))
                .body("data.reason", equalTo("reconnect_required"))
                .body("data.metrics", nullValue());
        as(workspace, Mode.LIVE)
                .get("/accounts/" + account)
                .then()
                .statusCode(200)
                .body("data.status", equalTo("connected"));
        assertThat(fake.find(anyRequestedFor(urlPathEqualTo("/tiktok/v2/oauth/token/"))
                        .withRequestBody(WireMock.containing("act.old" + openId))))
                .isEmpty();
        assertThat(fake.find(anyRequestedFor(urlPathEqualTo("/tiktok/v2/user/info/"))
                        .withHeader("Authorization", WireMock.equalTo("Bearer act.old" + openId))))
                .hasSize(1);
    }
}
