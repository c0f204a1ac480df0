package dev.herald.posts.rest;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static dev.herald.posts.support.PostsTestSupport.as;
import static dev.herald.posts.support.PostsTestSupport.execute;
import static dev.herald.posts.support.PostsTestSupport.insertPost;
import static dev.herald.posts.support.PostsTestSupport.insertTarget;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.client.WireMock;
import dev.herald.common.auth.Mode;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.posts.messaging.AnalyticsRefreshJob;
import dev.herald.posts.support.FakeCommentPlatforms;
import dev.herald.posts.support.FakeUpstreams;
import dev.herald.posts.support.PostsTestSupport;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Live post analytics against WireMock fakes of each platform's documented endpoint,
 * accounts-service's lookup and access stand-ins, and the real database.
 *
 * <p>Longer than 300 lines: one case per platform's documented endpoint, sharing the WireMock stubs and account set-up.
 */
@QuarkusTest
@WithTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = PostsTestSupport.DATABASE),
        scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakeUpstreams.class, scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakeCommentPlatforms.class, scope = TestResourceScope.MATCHING_RESOURCES)
class LivePostAnalyticsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CACHE = "x-herald-cache";

    @Inject
    AnalyticsRefreshJob refresher;

    private WireMock fake;
    private String workspace;

    @BeforeEach
    void newWorkspace() {
        FakeUpstreams.ensureStarted();
        fake = FakeCommentPlatforms.client();
        workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
    }

    /** A live account with its provider access, and a post published on it. */
    private record Published(String account, String post) {}

    private Published publishedOn(String platform, String externalId, String token, String providerPostId)
            throws Exception {
        String account = FakeUpstreams.addAccount(workspace, "live", platform, "brand", null);
        FakeUpstreams.grantAccess(account, platform, externalId, token);
        String post = insertPost(workspace, "live", "published");
        insertTarget(post, 0, account, platform, "published", providerPostId, 90);
        return new Published(account, post);
    }

    private Response read(String post) {
        return as(workspace, Mode.LIVE).get("/posts/" + post + "/analytics");
    }

    private int calls(String path) {
        return fake.find(anyRequestedFor(urlPathEqualTo(path))).size();
    }

    private static JsonNode json(String text) throws Exception {
        return JSON.readTree(text);
    }

    private static ResponseDefinitionBuilder graphError(int status, int code, String message) {
        return aResponse()
                .withStatus(status)
                .withHeader("Content-Type", "application/json")
                .withBody("""
                {"error":{"message":"%s","type":"OAuthException","code":%d,"fbtrace_id":"AbCdEf"}}""".formatted(message, code));
    }

    @Test
    void youtubeStatisticsAreReadWithTheChannelsTokenOnceConsentedAndTheNextReadIsAFreeCacheHit() throws Exception {
        Published published = publishedOn("youtube", "UC_channel", "ya29.channel-token", "dQw4w9WgXcQ");
        String post = published.post();
        String account = published.account();
        FakeUpstreams.setAnalyticsConsent(workspace, "live", account, true);
        fake.register(get(urlPathEqualTo("/youtube/v3/videos"))
                .withHeader("Authorization", WireMock.equalTo("Bearer ya29.channel-token"))
                .withQueryParam("part", WireMock.equalTo("statistics"))
                .withQueryParam("id", WireMock.equalTo("dQw4w9WgXcQ"))
                .willReturn(okJson("""
                        {"kind":"youtube#videoListResponse","etag":"x","items":[{"kind":"youtube#video","etag":"y","id":"dQw4w9WgXcQ",
                         "statistics":{"viewCount":"1085567053","likeCount":"12479318","favoriteCount":"0","commentCount":"2003414"}}],
                         "pageInfo":{"totalResults":1,"resultsPerPage":1}}""")));

        Response first = read(post);
        first.then().statusCode(200).header(CACHE, nullValue());
        JsonNode target = json(first.asString()).get("data").get("targets").get(0);
        assertThat(target.get("status").asText()).isEqualTo("available");
        assertThat(target.get("metrics")).isEqualTo(json("""
                {"views":1085567053,"likes":12479318,"comments":2003414,"shares":null,"saves":null,"reach":null}"""));
        assertThat(target.get("raw")).isEqualTo(json("""
                {"viewCount":"1085567053","likeCount":"12479318","favoriteCount":"0","commentCount":"2003414"}"""));

        read(post)
                .then()
                .statusCode(200)
                .header(CACHE, equalTo("hit"))
                .body("data.targets[0].metrics.views", equalTo(1085567053))
                .body(
                        "data.targets[0].refreshed_at",
                        equalTo(target.get("refreshed_at").asText()));
        assertThat(calls("/youtube/v3/videos")).isEqualTo(1);
    }

    @Test
    void youtubeIsNeverCalledWithoutConsentNeitherByAReadNorByTheRefresher() throws Exception {
        Published published = publishedOn("youtube", "UC_other", "ya29.other-token", "noConsent01");
        String post = published.post();
        String account = published.account();
        FakeUpstreams.setAnalyticsConsent(workspace, "live", account, false);

        read(post)
                .then()
                .statusCode(200)
                .header(CACHE, equalTo("hit"))
                .body("data.targets[0].status", equalTo("redacted"))
                .body("data.targets[0].reason", equalTo("analytics_consent_required"))
                .body("data.targets[0].metrics", nullValue());
        for (int pass = 0;
                pass < 50
                        && PostsTestSupport.count(
                                        "select count(*) from post_analytics where post_id = ? and last_error = 'analytics_consent_required'",
                                        post)
                                == 0;
                pass++) {
            refresher.refreshDue().await().atMost(Duration.ofSeconds(30));
        }
        assertThat(PostsTestSupport.count(
                        "select count(*) from post_analytics where post_id = ? and last_error = 'analytics_consent_required'",
                        post))
                .isEqualTo(1);
        assertThat(fake.find(getRequestedFor(urlPathEqualTo("/youtube/v3/videos"))
                        .withQueryParam("id", WireMock.equalTo("noConsent01"))))
                .isEmpty();
    }

    @Test
    void facebookReadsReactionsCommentsSharesAndLifetimeInsightsInOneCall() throws Exception {
        Published published = publishedOn("facebook", "1029384756", "EAAG-page-token", "1029384756_777");
        String post = published.post();
        fake.register(get(urlPathEqualTo("/fb/v24.0/1029384756_777"))
                .withHeader("Authorization", WireMock.equalTo("Bearer EAAG-page-token"))
                .withQueryParam(
                        "fields",
                        WireMock.equalTo(
                                "shares,reactions.summary(total_count).limit(0),"
                                        + "comments.summary(total_count).limit(0),insights.metric(post_impressions,post_impressions_unique)"))
                .willReturn(okJson("""
                        {"shares":{"count":7},
                         "reactions":{"data":[],"summary":{"total_count":120}},
                         "comments":{"data":[],"summary":{"order":"ranked","total_count":31,"can_comment":true}},
                         "insights":{"data":[
                           {"name":"post_impressions","period":"lifetime","values":[{"value":5400}],"title":"Lifetime Post Total Impressions","id":"1029384756_777/insights/post_impressions/lifetime"},
                           {"name":"post_impressions_unique","period":"lifetime","values":[{"value":4100}],"title":"Lifetime Post Total Reach","id":"1029384756_777/insights/post_impressions_unique/lifetime"}]},
                         "id":"1029384756_777"}""")));

        read(post)
                .then()
                .statusCode(200)
                .header(CACHE, nullValue())
                .body("data.targets[0].status", equalTo("available"))
                .body("data.targets[0].metrics.views", equalTo(5400))
                .body("data.targets[0].metrics.likes", equalTo(120))
                .body("data.targets[0].metrics.comments", equalTo(31))
                .body("data.targets[0].metrics.shares", equalTo(7))
                .body("data.targets[0].metrics.saves", nullValue())
                .body("data.targets[0].metrics.reach", equalTo(4100))
                .body("data.targets[0].raw.id", equalTo("1029384756_777"));
    }

    @Test
    void aRefusedFacebookTokenIsRenewedOnceAndTheReadSucceeds() throws Exception {
        Published published = publishedOn("facebook", "1029384756", "EAAG-expired", "1029384756_778");
        String post = published.post();
        String account = published.account();
        fake.register(get(urlPathEqualTo("/fb/v24.0/1029384756_778"))
                .withHeader("Authorization", WireMock.equalTo("Bearer EAAG-expired"))
                .willReturn(graphError(401, 190, "Error validating access token: Session has expired")));
        fake.register(get(urlPathEqualTo("/fb/v24.0/1029384756_778"))
                .withHeader("Authorization", WireMock.equalTo("Bearer EAAG-expired-renewed"))
                .willReturn(okJson("""
                        {"reactions":{"data":[],"summary":{"total_count":2}},"comments":{"data":[],"summary":{"total_count":1}},
                         "id":"1029384756_778"}""")));
        read(post)
                .then()
                .statusCode(200)
                .header(CACHE, nullValue())
                .body("data.targets[0].metrics.likes", equalTo(2))
                .body("data.targets[0].metrics.comments", equalTo(1))
                .body("data.targets[0].metrics.shares", equalTo(0))
                .body("data.targets[0].metrics.views", nullValue());
        assertThat(FakeUpstreams.renewals(account)).isEqualTo(1);
    }

    @Test
    void instagramMediaInsightsMapToTheMetricsAndAMetricInstagramLeavesOutIsNull() throws Exception {
        Published published = publishedOn("instagram", "17841400000000001", "IGQV-token", "17954170374002653");
        String post = published.post();
        fake.register(get(urlPathEqualTo("/ig/v24.0/17954170374002653/insights"))
                .withHeader("Authorization", WireMock.equalTo("Bearer IGQV-token"))
                .withQueryParam("metric", WireMock.equalTo("views,reach,likes,comments,shares,saved"))
                .willReturn(okJson("""
                        {"data":[
                          {"name":"views","period":"lifetime","values":[{"value":980}],"title":"Views","description":"d","id":"17954170374002653/insights/views/lifetime"},
                          {"name":"reach","period":"lifetime","values":[{"value":640}],"title":"Accounts reached","description":"d","id":"17954170374002653/insights/reach/lifetime"},
                          {"name":"likes","period":"lifetime","values":[{"value":77}],"title":"Likes","description":"d","id":"17954170374002653/insights/likes/lifetime"},
                          {"name":"comments","period":"lifetime","values":[{"value":9}],"title":"Comments","description":"d","id":"17954170374002653/insights/comments/lifetime"},
                          {"name":"saved","period":"lifetime","values":[{"value":12}],"title":"Saved","description":"d","id":"17954170374002653/insights/saved/lifetime"}]}""")));

        Response answer = read(post);
        answer.then().statusCode(200).header(CACHE, nullValue());
        JsonNode target = json(answer.asString()).get("data").get("targets").get(0);
        assertThat(target.get("metrics")).isEqualTo(json("""
                {"views":980,"likes":77,"comments":9,"shares":null,"saves":12,"reach":640}"""));
        assertThat(target.get("raw")).isEqualTo(json("""
                {"views":980,"reach":640,"likes":77,"comments":9,"saved":12}"""));
    }

    @Test
    void linkedinLikesAndCommentsComeFromThePostsSocialActionsSummary() throws Exception {
        Published published = publishedOn("linkedin", "urn:li:person:abc", "AQV-token", "urn:li:share:7101");
        String post = published.post();
        fake.register(get(urlPathEqualTo("/rest/socialActions/urn%3Ali%3Ashare%3A7101"))
                .withHeader("Authorization", WireMock.equalTo("Bearer AQV-token"))
                .withHeader("LinkedIn-Version", WireMock.equalTo("202601"))
                .withHeader("X-Restli-Protocol-Version", WireMock.equalTo("2.0.0"))
                .willReturn(okJson("""
                        {"commentsSummary":{"selectedComments":[],"totalFirstLevelComments":4,"aggregatedTotalComments":6},
                         "likesSummary":{"selectedLikes":[],"likedByCurrentUser":false,"totalLikes":15},
                         "target":"urn:li:share:7101"}""")));

        read(post)
                .then()
                .statusCode(200)
                .header(CACHE, nullValue())
                .body("data.targets[0].metrics.likes", equalTo(15))
                .body("data.targets[0].metrics.comments", equalTo(6))
                .body("data.targets[0].metrics.views", nullValue())
                .body("data.targets[0].raw.target", equalTo("urn:li:share:7101"));
    }

    @Test
    void pinterestImpressionsAndSavesCoverTheLastNinetyDays() throws Exception {
        Published published = publishedOn("pinterest", "pinner", "pina_token", "813744226420795884");
        String post = published.post();
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        fake.register(get(urlPathEqualTo("/v5/pins/813744226420795884/analytics"))
                .withHeader("Authorization", WireMock.equalTo("Bearer pina_token"))
                .withQueryParam(
                        "start_date", WireMock.equalTo(today.minusDays(89).toString()))
                .withQueryParam("end_date", WireMock.equalTo(today.toString()))
                .withQueryParam("metric_types", WireMock.equalTo("IMPRESSION,SAVE,PIN_CLICK,OUTBOUND_CLICK"))
                .willReturn(okJson("""
                        {"all":{"daily_metrics":[{"date":"%s","data_status":"READY","metrics":{"IMPRESSION":1368,"SAVE":6,"PIN_CLICK":58,"OUTBOUND_CLICK":1}}],
                         "summary_metrics":{"IMPRESSION":1368,"SAVE":6,"PIN_CLICK":58,"OUTBOUND_CLICK":1}}}""".formatted(today))));

        read(post)
                .then()
                .statusCode(200)
                .header(CACHE, nullValue())
                .body("data.targets[0].metrics.views", equalTo(1368))
                .body("data.targets[0].metrics.saves", equalTo(6))
                .body("data.targets[0].metrics.likes", nullValue())
                .body("data.targets[0].raw.PIN_CLICK", equalTo(58));
    }

    @Test
    void aPlatformFailureAnswersTheLastNumbersOrWhyThereAreNoneAndIsFree() throws Exception {
        Published published = publishedOn("instagram", "17841400000000002", "IGQV-failing", "17954170374009999");
        String post = published.post();
        fake.register(get(urlPathEqualTo("/ig/v24.0/17954170374009999/insights"))
                .willReturn(graphError(400, 100, "Unsupported get request")));

        read(post)
                .then()
                .statusCode(200)
                .header(CACHE, equalTo("hit"))
                .body("data.targets[0].status", equalTo("unavailable"))
                .body("data.targets[0].reason", equalTo("provider_error"))
                .body("data.targets[0].metrics", nullValue());

        // Numbers read earlier stay the answer, with the time they were read.
        execute("""
                update post_analytics set metrics = '{"views":5,"likes":1,"comments":0,"shares":0,"saves":0,"reach":4}',
                    raw = '{}', refreshed_at = '2026-11-20T10:00:00Z' where post_id = ?""", post);
        read(post)
                .then()
                .statusCode(200)
                .header(CACHE, equalTo("hit"))
                .body("data.targets[0].status", equalTo("available"))
                .body("data.targets[0].metrics.views", equalTo(5))
                .body("data.targets[0].refreshed_at", equalTo("2026-11-20T10:00:00Z"));
        assertThat(calls("/ig/v24.0/17954170374009999/insights")).isEqualTo(2);
    }

    private static final String TIKTOK_QUERY = "/v2/video/query/";
    private static final String TIKTOK_FIELDS = "id,like_count,comment_count,share_count,view_count";

    private static ResponseDefinitionBuilder tiktokError(int status, String code, String message) {
        return aResponse()
                .withStatus(status)
                .withHeader("Content-Type", "application/json")
                .withBody("""
                {"data":{},"error":{"code":"%s","message":"%s","log_id":"20261125105301ABCDEF"}}""".formatted(code, message));
    }

    @Test
    void tiktokViewsLikesCommentsAndSharesComeFromQueryVideosWithTheCreatorsToken() throws Exception {
        Published published = publishedOn("tiktok", "-000open", "act.creator", "7311111111111111111");
        fake.register(post(urlPathEqualTo(TIKTOK_QUERY))
                .withHeader("Authorization", WireMock.equalTo("Bearer act.creator"))
                .withHeader("Content-Type", WireMock.containing("application/json"))
                .withQueryParam("fields", WireMock.equalTo(TIKTOK_FIELDS))
                .withRequestBody(WireMock.equalToJson("""
                        {"filters":{"video_ids":["7311111111111111111"]}}"""))
                .willReturn(okJson("""
                        {"data":{"videos":[{"id":"7311111111111111111","like_count":420,"comment_count":37,"share_count":12,
                          "view_count":9001}],"cursor":1700000000000,"has_more":false},
                         "error":{"code":"ok","message":"","log_id":"20261125105301ABCDEF"}}""")));

        Response answer = read(published.post());
        answer.then().statusCode(200).header(CACHE, nullValue());
        JsonNode target = json(answer.asString()).get("data").get("targets").get(0);
        assertThat(target.get("status").asText()).isEqualTo("available");
        assertThat(target.get("reason").isNull()).isTrue();
        assertThat(target.get("metrics")).isEqualTo(json("""
                {"views":9001,"likes":420,"comments":37,"shares":12,"saves":null,"reach":null}"""));
        assertThat(target.get("raw")).isEqualTo(json("""
                {"id":"7311111111111111111","like_count":420,"comment_count":37,"share_count":12,"view_count":9001}"""));
        assertThat(fake.find(anyRequestedFor(urlPathEqualTo(TIKTOK_QUERY))
                        .withHeader("Authorization", WireMock.equalTo("Bearer act.creator"))))
                .hasSize(1);
    }

    @Test
    void aRefusedTikTokTokenIsRenewedOnceAndTheReadSucceeds() throws Exception {
        Published published = publishedOn("tiktok", "-000open", "act.expired", "7322222222222222222");
        fake.register(post(urlPathEqualTo(TIKTOK_QUERY))
                .withHeader("Authorization", WireMock.equalTo("Bearer act.expired"))
                .willReturn(tiktokError(
                        401, "access_token_invalid", "The access token is invalid or not found in the request.")));
        fake.register(post(urlPathEqualTo(TIKTOK_QUERY))
                .withHeader("Authorization", WireMock.equalTo("Bearer act.expired-renewed"))
                .withRequestBody(WireMock.equalToJson("""
                        {"filters":{"video_ids":["7322222222222222222"]}}"""))
                .willReturn(okJson("""
                        {"data":{"videos":[{"id":"7322222222222222222","like_count":3,"comment_count":0,"share_count":1,
                          "view_count":88}],"cursor":0,"has_more":false},"error":{"code":"ok","message":"","log_id":"x"}}""")));

        read(published.post())
                .then()
                .statusCode(200)
                .header(CACHE, nullValue())
                .body("data.targets[0].status", equalTo("available"))
                .body("data.targets[0].metrics.views", equalTo(88))
                .body("data.targets[0].metrics.likes", equalTo(3))
                .body("data.targets[0].metrics.comments", equalTo(0))
                .body("data.targets[0].metrics.shares", equalTo(1));
        assertThat(FakeUpstreams.renewals(published.account())).isEqualTo(1);
        assertThat(fake.find(anyRequestedFor(urlPathEqualTo(TIKTOK_QUERY))
                        .withHeader("Authorization", WireMock.equalTo("Bearer act.expired"))))
                .hasSize(1);
    }

    @Test
    void aTikTokGrantWithoutVideoListAsksForAReconnectionWithoutRenewingAndIsFree() throws Exception {
        Published published = publishedOn("tiktok", "-000open", "act.old-grant", "7333333333333333333");
        fake.register(post(urlPathEqualTo(TIKTOK_QUERY))
                .withHeader("Authorization", WireMock.equalTo("Bearer act.old-grant"))
                .willReturn(tiktokError(
                        401,
                        "scope_not_authorized",
                        "The user did not authorize the scope required for completing this request.")));

        read(published.post())
                .then()
                .statusCode(200)
                .header(CACHE, equalTo("hit"))
                .body("data.targets[0].status", equalTo("unavailable"))
                .body("data.targets[0].reason", equalTo("reconnect_required"))
                .body("data.targets[0].metrics", nullValue());
        assertThat(FakeUpstreams.renewals(published.account())).isZero();
        assertThat(fake.find(anyRequestedFor(urlPathEqualTo(TIKTOK_QUERY))
                        .withHeader("Authorization", WireMock.equalTo("Bearer act.old-grant"))))
                .hasSize(1);
    }

    @Test
    void aVideoTikTokDoesNotAnswerIsAProviderErrorAndADisconnectedAccountIsNotReadBothFree() throws Exception {
        Published tiktok = publishedOn("tiktok", "-000open", "act.private", "v_pub_file~v2-1.7344444444444444444");
        fake.register(post(urlPathEqualTo(TIKTOK_QUERY))
                .withHeader("Authorization", WireMock.equalTo("Bearer act.private"))
                .willReturn(okJson("""
                        {"data":{"videos":[],"cursor":0,"has_more":false},"error":{"code":"ok","message":"","log_id":"x"}}""")));
        read(tiktok.post())
                .then()
                .statusCode(200)
                .header(CACHE, equalTo("hit"))
                .body("data.targets[0].status", equalTo("unavailable"))
                .body("data.targets[0].reason", equalTo("provider_error"));

        Published facebook = publishedOn("facebook", "1029384756", "EAAG-gone", "1029384756_779");
        String facebookPost = facebook.post();
        FakeUpstreams.disconnect(workspace, "live", facebook.account());
        read(facebookPost)
                .then()
                .statusCode(200)
                .header(CACHE, equalTo("hit"))
                .body("data.targets[0].status", equalTo("unavailable"))
                .body("data.targets[0].reason", equalTo("account_disconnected"));
        assertThat(calls("/fb/v24.0/1029384756_779")).isZero();
    }
}
