package dev.herald.posts.rest;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static dev.herald.posts.support.PostsTestSupport.as;
import static dev.herald.posts.support.PostsTestSupport.execute;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.nullValue;

import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.client.WireMock;
import dev.herald.common.auth.Mode;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.posts.support.FakeCommentPlatforms;
import dev.herald.posts.support.FakeUpstreams;
import dev.herald.posts.support.PostsTestSupport;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Live comments against local fakes of the platforms' comment APIs, accounts-service's access
 * endpoint and usage-service's comment-request reservations, with the comments stored in the real database.
 *
 * <p>Longer than 300 lines: each platform's read and reply, their charging and their refusals share the fakes' set-up and the stored-row assertions; it tests one class, {@code LiveComments}.
 */
@QuarkusTest
@WithTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = PostsTestSupport.DATABASE),
        scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakeUpstreams.class, scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakeCommentPlatforms.class, scope = TestResourceScope.MATCHING_RESOURCES)
class LiveCommentsTest {
    private static final String COMMENT_ID = "^cmt_[a-f0-9]{24}$";
    private static final String PAGE = "1029384756";
    private static final String FACEBOOK_FIELDS = "id,message,from,created_time,parent{id}";

    private WireMock fake;
    private String workspace;

    @BeforeEach
    void newWorkspace() {
        FakeUpstreams.ensureStarted();
        fake = FakeCommentPlatforms.client();
        workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
    }

    /** A live account with its provider access. */
    private String liveAccount(String platform, String externalId, String token) {
        String account = FakeUpstreams.addAccount(workspace, "live", platform, "brand", null);
        FakeUpstreams.grantAccess(account, platform, externalId, token);
        return account;
    }

    /** A live post published on the account as {@code providerPostId}, as the worker's report leaves it. */
    private String publishedLive(String account, String platform, String providerPostId) throws Exception {
        String post = ResourceIds.newId(IdPrefix.POST);
        execute("""
                insert into posts (id, workspace_id, mode, text, due_at, status, created_at, updated_at, dispatched_at, finalized_at)
                values (?, ?, 'live', 'Doors open at 9', now(), 'published', now(), now(), now(), now())""", post, workspace);
        execute("""
                insert into post_targets (post_id, position, account_id, platform, account_username, reservation_id, status,
                                          attempts, provider_post_id, completed_at, updated_at)
                values (?, 0, ?, ?, 'brand', ?, 'published', 1, ?, now(), now())""", post, account, platform, post + "-" + account, providerPostId);
        return post;
    }

    /** The freshness window of the post's targets has passed. */
    private static void windowPassed(String post) throws Exception {
        execute("update post_targets set comments_read_at = now() - interval '2 minutes' where post_id = ?", post);
    }

    private static String stableId(String account, String providerId) throws Exception {
        byte[] hash = MessageDigest.getInstance("SHA-256")
                .digest((account + ":" + providerId).getBytes(StandardCharsets.UTF_8));
        return "cmt_" + HexFormat.of().formatHex(hash).substring(0, 24);
    }

    private static String sha256(String text) throws Exception {
        return HexFormat.of()
                .formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    }

    private Map<String, Long> commentRequests() {
        return FakeUpstreams.commentRequests(workspace, "live");
    }

    private static ResponseDefinitionBuilder graphError(int status, int code, String message) {
        return aResponse()
                .withStatus(status)
                .withHeader("Content-Type", "application/json")
                .withBody("""
                {"error":{"message":"%s","type":"OAuthException","code":%d,"fbtrace_id":"AbCdEf"}}""".formatted(message, code));
    }

    private void stubFacebookComments(String postId, String token) {
        fake.register(get(urlPathEqualTo("/fb/v24.0/" + postId + "/comments"))
                .withHeader("Authorization", WireMock.equalTo("Bearer " + token))
                .withQueryParam("fields", WireMock.equalTo(FACEBOOK_FIELDS))
                .withQueryParam("filter", WireMock.equalTo("stream"))
                .withQueryParam("order", WireMock.equalTo("reverse_chronological"))
                .withQueryParam("limit", WireMock.equalTo("100"))
                .willReturn(okJson("""
                        {"data":[
                          {"id":"%1$s_901","message":"Thanks, see you there!","from":{"id":"%2$s","name":"Brand Page"},
                           "created_time":"2026-11-20T10:05:00+0000","parent":{"id":"%1$s_900"}},
                          {"id":"%1$s_900","message":"When does it open?","from":{"id":"4242","name":"Ada Fan"},
                           "created_time":"2026-11-20T10:00:00+0000"}],
                         "paging":{"cursors":{"before":"QVFI","after":"QVFJ"}}}""".formatted(postId, PAGE))));
    }

    private int calls(String path) {
        return fake.find(anyRequestedFor(urlPathEqualTo(path))).size();
    }

    @Test
    void facebookCommentsAreReadWithThePageTokenAndKeepTheirIdsWhileTheWindowAnswersFromStorage() throws Exception {
        String account = liveAccount("facebook", PAGE, "EAAG-page-token");
        String post = publishedLive(account, "facebook", PAGE + "_5551");
        stubFacebookComments(PAGE + "_5551", "EAAG-page-token");
        String question = stableId(account, PAGE + "_5551_900");

        List<String> first = as(workspace, Mode.LIVE)
                .get("/comments?post_id=" + post)
                .then()
                .statusCode(200)
                .body("data", hasSize(2))
                .body("data[0].id", equalTo(stableId(account, PAGE + "_5551_901")))
                .body("data[0].parent_id", equalTo(question))
                .body("data[0].text", equalTo("Thanks, see you there!"))
                .body("data[0].from_account", equalTo(true))
                .body("data[0].created_at", equalTo("2026-11-20T10:05:00Z"))
                .body("data[1].id", equalTo(question))
                .body("data[1].parent_id", nullValue())
                .body("data[1].post_id", equalTo(post))
                .body("data[1].account_id", equalTo(account))
                .body("data[1].platform", equalTo("facebook"))
                .body("data[1].author_name", equalTo("Ada Fan"))
                .body("data[1].author_username", equalTo("4242"))
                .body("data[1].from_account", equalTo(false))
                .extract()
                .path("data.id");
        assertThat(calls("/fb/v24.0/" + PAGE + "_5551/comments")).isEqualTo(1);
        assertThat(commentRequests()).isEqualTo(Map.of("consumed", 1L));

        // Within the window: the stored copy, no platform call, nothing reserved.
        List<String> second = as(workspace, Mode.LIVE)
                .get("/comments?post_id=" + post)
                .then()
                .statusCode(200)
                .extract()
                .path("data.id");
        assertThat(second).isEqualTo(first);
        assertThat(calls("/fb/v24.0/" + PAGE + "_5551/comments")).isEqualTo(1);
        assertThat(commentRequests()).isEqualTo(Map.of("consumed", 1L));

        windowPassed(post);
        List<String> third = as(workspace, Mode.LIVE)
                .get("/comments?post_id=" + post)
                .then()
                .statusCode(200)
                .extract()
                .path("data.id");
        assertThat(third).isEqualTo(first);
        assertThat(calls("/fb/v24.0/" + PAGE + "_5551/comments")).isEqualTo(2);
        assertThat(commentRequests()).isEqualTo(Map.of("consumed", 2L));
        assertThat(PostsTestSupport.count("select count(*) from comments where account_id = ?", account))
                .isEqualTo(2);
    }

    @Test
    void aFacebookReplyIsPostedOnTheCommentAndStoredAsTheAccounts() throws Exception {
        String account = liveAccount("facebook", PAGE, "EAAG-page-token");
        String post = publishedLive(account, "facebook", PAGE + "_5552");
        stubFacebookComments(PAGE + "_5552", "EAAG-page-token");
        fake.register(post(urlPathEqualTo("/fb/v24.0/" + PAGE + "_5552_900/comments"))
                .willReturn(okJson("{\"id\":\"" + PAGE + "_5552_902\"}")));
        String question = stableId(account, PAGE + "_5552_900");
        as(workspace, Mode.LIVE).get("/comments?post_id=" + post).then().statusCode(200);

        as(workspace, Mode.LIVE)
                .body("{\"comment_id\":\"" + question + "\",\"text\":\"  Opens at 9 (sharp)!  \"}")
                .post("/comments")
                .then()
                .statusCode(201)
                .body("data.id", equalTo(stableId(account, PAGE + "_5552_902")))
                .body("data.parent_id", equalTo(question))
                .body("data.post_id", equalTo(post))
                .body("data.account_id", equalTo(account))
                .body("data.platform", equalTo("facebook"))
                .body("data.text", equalTo("Opens at 9 (sharp)!"))
                .body("data.author_name", equalTo("Account brand"))
                // As a later read names the Page (from.id), so the stored reply keeps one author.
                .body("data.author_username", equalTo(PAGE))
                .body("data.from_account", equalTo(true));
        fake.verifyThat(
                1,
                postRequestedFor(urlPathEqualTo("/fb/v24.0/" + PAGE + "_5552_900/comments"))
                        .withHeader("Authorization", WireMock.equalTo("Bearer EAAG-page-token"))
                        .withHeader("Content-Type", WireMock.containing("application/x-www-form-urlencoded"))
                        .withFormParam("message", WireMock.equalTo("Opens at 9 (sharp)!")));
        assertThat(commentRequests()).isEqualTo(Map.of("consumed", 2L));
        // The reply lists with the stored comments (still within the window).
        as(workspace, Mode.LIVE)
                .get("/comments?post_id=" + post)
                .then()
                .statusCode(200)
                .body("data", hasSize(3))
                .body("data.id", org.hamcrest.Matchers.hasItem(stableId(account, PAGE + "_5552_902")));
    }

    @Test
    void instagramCommentsComeWithTheirRepliesAndAReplyToAReplyGoesToItsThread() throws Exception {
        String account = liveAccount("instagram", "17841400000000001", "IGAA-token");
        String post = publishedLive(account, "instagram", "17895695668004550");
        fake.register(get(urlPathEqualTo("/ig/v24.0/17895695668004550/comments"))
                .withHeader("Authorization", WireMock.equalTo("Bearer IGAA-token"))
                .withQueryParam(
                        "fields", WireMock.equalTo("id,text,username,timestamp,replies{id,text,username,timestamp}"))
                .withQueryParam("limit", WireMock.equalTo("50"))
                .willReturn(okJson("""
                        {"data":[{"id":"17873440459141021","text":"I love this!","username":"ada.lovelace",
                                  "timestamp":"2026-11-20T10:00:00+0000",
                                  "replies":{"data":[{"id":"17873440459141022","text":"Thank you!","username":"brand",
                                                      "timestamp":"2026-11-20T10:01:00+0000"}]}}]}""")));
        fake.register(post(urlPathEqualTo("/ig/v24.0/17873440459141021/replies"))
                .willReturn(okJson("{\"id\":\"17873440459141023\"}")));
        String top = stableId(account, "17873440459141021");
        String ownReply = stableId(account, "17873440459141022");

        as(workspace, Mode.LIVE)
                .get("/comments?post_id=" + post)
                .then()
                .statusCode(200)
                .body("data", hasSize(2))
                .body("data[0].id", equalTo(ownReply))
                .body("data[0].parent_id", equalTo(top))
                .body("data[0].from_account", equalTo(true))
                .body("data[1].id", equalTo(top))
                .body("data[1].author_username", equalTo("ada.lovelace"))
                .body("data[1].text", equalTo("I love this!"));

        as(workspace, Mode.LIVE)
                .body("{\"comment_id\":\"" + ownReply + "\",\"text\":\"See you Friday\"}")
                .post("/comments")
                .then()
                .statusCode(201)
                .body("data.id", equalTo(stableId(account, "17873440459141023")))
                .body("data.parent_id", equalTo(top))
                .body("data.author_name", equalTo("brand"))
                .body("data.author_username", equalTo("brand"))
                .body("data.from_account", equalTo(true));
        fake.verifyThat(
                1,
                postRequestedFor(urlPathEqualTo("/ig/v24.0/17873440459141021/replies"))
                        .withHeader("Authorization", WireMock.equalTo("Bearer IGAA-token"))
                        .withQueryParam("message", WireMock.equalTo("See you Friday")));
        assertThat(commentRequests()).isEqualTo(Map.of("consumed", 2L));
    }

    @Test
    void youtubeThreadsAreReadForTheAccountsLatestVideosAndRepliesNameTheirParent() throws Exception {
        String account = liveAccount("youtube", "UCbrandChannel", "ya29.token");
        String post = publishedLive(account, "youtube", "dQw4w9WgXcQ");
        fake.register(get(urlPathEqualTo("/youtube/v3/commentThreads"))
                .withHeader("Authorization", WireMock.equalTo("Bearer ya29.token"))
                .withQueryParam("part", WireMock.equalTo("snippet,replies"))
                .withQueryParam("videoId", WireMock.equalTo("dQw4w9WgXcQ"))
                .withQueryParam("maxResults", WireMock.equalTo("100"))
                .withQueryParam("order", WireMock.equalTo("time"))
                .withQueryParam("textFormat", WireMock.equalTo("plainText"))
                .willReturn(okJson("""
                        {"kind":"youtube#commentThreadListResponse","items":[
                          {"kind":"youtube#commentThread","id":"UgzTop1","snippet":{"videoId":"dQw4w9WgXcQ",
                            "topLevelComment":{"kind":"youtube#comment","id":"UgzTop1","snippet":{
                              "authorDisplayName":"@adafan","authorChannelId":{"value":"UCada"},"videoId":"dQw4w9WgXcQ",
                              "textDisplay":"Great video","publishedAt":"2026-11-20T09:00:00Z"}},
                            "totalReplyCount":1},
                           "replies":{"comments":[{"kind":"youtube#comment","id":"UgzTop1.r1","snippet":{
                              "authorDisplayName":"@brand","authorChannelId":{"value":"UCbrandChannel"},"parentId":"UgzTop1",
                              "textDisplay":"Thanks!","publishedAt":"2026-11-20T09:30:00Z"}}]}}]}""")));
        fake.register(post(urlPathEqualTo("/youtube/v3/comments")).willReturn(okJson("""
                {"kind":"youtube#comment","id":"UgzTop1.r2","snippet":{"parentId":"UgzTop1","authorDisplayName":"@brand",
                 "authorChannelId":{"value":"UCbrandChannel"},"textDisplay":"Part two is coming","textOriginal":"Part two is coming",
                 "publishedAt":"2026-11-20T11:00:00Z"}}""")));
        String top = stableId(account, "UgzTop1");

        as(workspace, Mode.LIVE)
                .get("/comments?account_id=" + account)
                .then()
                .statusCode(200)
                .body("data", hasSize(2))
                .body("data[0].parent_id", equalTo(top))
                .body("data[0].from_account", equalTo(true))
                .body("data[1].id", equalTo(top))
                .body("data[1].post_id", equalTo(post))
                .body("data[1].author_name", equalTo("@adafan"))
                .body("data[1].author_username", equalTo("UCada"));

        as(workspace, Mode.LIVE)
                .body("{\"comment_id\":\"" + top + "\",\"text\":\"Part two is coming\"}")
                .post("/comments")
                .then()
                .statusCode(201)
                .body("data.id", equalTo(stableId(account, "UgzTop1.r2")))
                .body("data.parent_id", equalTo(top))
                .body("data.author_name", equalTo("@brand"))
                .body("data.author_username", equalTo("UCbrandChannel"))
                .body("data.created_at", equalTo("2026-11-20T11:00:00Z"));
        fake.verifyThat(
                1,
                postRequestedFor(urlPathEqualTo("/youtube/v3/comments"))
                        .withQueryParam("part", WireMock.equalTo("snippet"))
                        .withHeader("Authorization", WireMock.equalTo("Bearer ya29.token"))
                        .withRequestBody(equalToJson(
                                "{\"snippet\":{\"parentId\":\"UgzTop1\",\"textOriginal\":\"Part two is coming\"}}")));
        assertThat(commentRequests()).isEqualTo(Map.of("consumed", 2L));
    }

    @Test
    void linkedInCommentsAreReadByPostUrnWithTheVersionHeaderAndRepliesNameTheParentComment() throws Exception {
        String account = liveAccount("linkedin", "urn:li:person:brand1", "AQV-token");
        String post = publishedLive(account, "linkedin", "urn:li:share:7001");
        String parentUrn = "urn:li:comment:(urn:li:activity:6999,81)";
        fake.register(get(urlPathEqualTo("/rest/socialActions/urn%3Ali%3Ashare%3A7001/comments"))
                .withHeader("Authorization", WireMock.equalTo("Bearer AQV-token"))
                .withHeader("LinkedIn-Version", WireMock.equalTo("202601"))
                .withHeader("X-Restli-Protocol-Version", WireMock.equalTo("2.0.0"))
                .willReturn(okJson("""
                        {"paging":{"start":0,"count":10,"total":1},"elements":[
                          {"actor":"urn:li:person:ada","commentUrn":"%s","id":"81","object":"urn:li:activity:6999",
                           "message":{"text":"Congratulations!"},"created":{"actor":"urn:li:person:ada","time":1763632800000}}]}""".formatted(parentUrn))));
        fake.register(post(urlPathEqualTo(
                        "/rest/socialActions/urn%3Ali%3Acomment%3A%28urn%3Ali%3Aactivity%3A6999%2C81%29/comments"))
                .willReturn(aResponse()
                        .withStatus(201)
                        .withHeader("Content-Type", "application/json")
                        .withHeader("x-restli-id", "82")
                        .withBody("""
                                {"actor":"urn:li:person:brand1","commentUrn":"urn:li:comment:(urn:li:activity:6999,82)","id":"82",
                                 "object":"urn:li:activity:6999","parentComment":"%s","message":{"text":"Thank you!"},
                                 "created":{"actor":"urn:li:person:brand1","time":1763636400000}}""".formatted(parentUrn))));
        String parent = stableId(account, parentUrn);

        as(workspace, Mode.LIVE)
                .get("/comments?post_id=" + post)
                .then()
                .statusCode(200)
                .body("data", hasSize(1))
                .body("data[0].id", equalTo(parent))
                .body("data[0].text", equalTo("Congratulations!"))
                .body("data[0].author_name", equalTo("LinkedIn member"))
                .body("data[0].author_username", equalTo("urn:li:person:ada"))
                .body("data[0].created_at", equalTo("2025-11-20T10:00:00Z"));
        fake.verifyThat(
                1,
                getRequestedFor(urlPathEqualTo("/rest/socialActions/urn%3Ali%3Ashare%3A7001/comments"))
                        .withQueryParam("count", WireMock.equalTo("100")));

        as(workspace, Mode.LIVE)
                .body("{\"comment_id\":\"" + parent + "\",\"text\":\"Thank you!\"}")
                .post("/comments")
                .then()
                .statusCode(201)
                .body("data.id", equalTo(stableId(account, "urn:li:comment:(urn:li:activity:6999,82)")))
                .body("data.parent_id", equalTo(parent))
                .body("data.author_username", equalTo("urn:li:person:brand1"));
        fake.verifyThat(
                1,
                postRequestedFor(
                                urlPathEqualTo(
                                        "/rest/socialActions/urn%3Ali%3Acomment%3A%28urn%3Ali%3Aactivity%3A6999%2C81%29/comments"))
                        .withHeader("LinkedIn-Version", WireMock.equalTo("202601"))
                        .withHeader("X-Restli-Protocol-Version", WireMock.equalTo("2.0.0"))
                        .withRequestBody(equalToJson("""
                        {"actor":"urn:li:person:brand1","object":"urn:li:activity:6999","parentComment":"%s",
                         "message":{"text":"Thank you!"}}""".formatted(parentUrn))));
    }

    @Test
    void aRefusedTokenIsRenewedOnceNamingItsHashAndTheReadRepeated() throws Exception {
        String account = liveAccount("facebook", PAGE, "EAAG-old");
        String post = publishedLive(account, "facebook", PAGE + "_5553");
        fake.register(get(urlPathEqualTo("/fb/v24.0/" + PAGE + "_5553/comments"))
                .withHeader("Authorization", WireMock.equalTo("Bearer EAAG-old"))
                .willReturn(graphError(401, 190, "Error validating access token: Session has expired")));
        stubFacebookComments(PAGE + "_5553", "EAAG-old-renewed");

        as(workspace, Mode.LIVE)
                .get("/comments?post_id=" + post)
                .then()
                .statusCode(200)
                .body("data", hasSize(2));
        assertThat(FakeUpstreams.renewals(account)).isEqualTo(1);
        assertThat(FakeUpstreams.ACCESS_REQUESTS.get(account)).containsExactly("", sha256("EAAG-old"));
        assertThat(calls("/fb/v24.0/" + PAGE + "_5553/comments")).isEqualTo(2);
        assertThat(commentRequests()).isEqualTo(Map.of("consumed", 1L));
    }

    @Test
    void aTokenRefusedAgainAfterItsRenewalIsAProviderErrorAndNothingIsCharged() throws Exception {
        String account = liveAccount("linkedin", "urn:li:person:brand2", "AQV-stale");
        String post = publishedLive(account, "linkedin", "urn:li:share:7002");
        fake.register(get(urlPathEqualTo("/rest/socialActions/urn%3Ali%3Ashare%3A7002/comments"))
                .willReturn(aResponse()
                        .withStatus(401)
                        .withHeader("Content-Type", "application/json")
                        .withBody("{\"status\":401,\"serviceErrorCode\":65601,\"code\":\"REVOKED_ACCESS_TOKEN\","
                                + "\"message\":\"The token used in the request has been revoked by the user\"}")));

        as(workspace, Mode.LIVE)
                .get("/comments?post_id=" + post)
                .then()
                .statusCode(502)
                .body("error.code", equalTo("provider_error"))
                .body("error.details.provider_status", equalTo(401))
                .body("error.details.platform", equalTo("linkedin"));
        assertThat(FakeUpstreams.renewals(account)).isEqualTo(1);
        fake.verifyThat(
                1,
                getRequestedFor(urlPathEqualTo("/rest/socialActions/urn%3Ali%3Ashare%3A7002/comments"))
                        .withHeader("Authorization", WireMock.equalTo("Bearer AQV-stale")));
        fake.verifyThat(
                1,
                getRequestedFor(urlPathEqualTo("/rest/socialActions/urn%3Ali%3Ashare%3A7002/comments"))
                        .withHeader("Authorization", WireMock.equalTo("Bearer AQV-stale-renewed")));
        assertThat(commentRequests()).isEqualTo(Map.of("released", 1L));
    }

    @Test
    void aReplyWhoseConnectionBreaksIsAProviderErrorAndItsCommentRequestIsReleased() throws Exception {
        String account = liveAccount("instagram", "17841400000000002", "IGAA-token-2");
        String post = publishedLive(account, "instagram", "17895695668004551");
        fake.register(
                get(urlPathEqualTo("/ig/v24.0/17895695668004551/comments")).willReturn(okJson("""
                {"data":[{"id":"17873440459141031","text":"Nice","username":"grace","timestamp":"2026-11-20T10:00:00+0000"}]}""")));
        fake.register(post(urlPathEqualTo("/ig/v24.0/17873440459141031/replies"))
                .willReturn(
                        aResponse().withFault(com.github.tomakehurst.wiremock.http.Fault.CONNECTION_RESET_BY_PEER)));
        as(workspace, Mode.LIVE)
                .get("/comments?post_id=" + post)
                .then()
                .statusCode(200)
                .body("data", hasSize(1));

        as(workspace, Mode.LIVE)
                .body("{\"comment_id\":\"" + stableId(account, "17873440459141031") + "\",\"text\":\"Thanks\"}")
                .post("/comments")
                .then()
                .statusCode(502)
                .body("error.code", equalTo("provider_error"))
                .body("error.message", equalTo("Instagram did not answer; try again shortly."))
                .body("error.details.account_id", equalTo(account));
        assertThat(commentRequests()).isEqualTo(Map.of("consumed", 1L, "released", 1L));
        assertThat(PostsTestSupport.count("select count(*) from comments where account_id = ?", account))
                .isEqualTo(1);
    }

    @Test
    void aUsedUpAllowanceRefusesWithTheUsageDetailsBeforeAnyPlatformCall() throws Exception {
        String account = liveAccount("facebook", PAGE, "EAAG-page-token");
        String post = publishedLive(account, "facebook", PAGE + "_5554");
        stubFacebookComments(PAGE + "_5554", "EAAG-page-token");
        FakeUpstreams.setCommentRequestLimit(workspace, "live", 0);

        as(workspace, Mode.LIVE)
                .get("/comments?post_id=" + post)
                .then()
                .statusCode(429)
                .header("Retry-After", "654321")
                .body("error.code", equalTo("usage_limit_exceeded"))
                .body("error.details.metric", equalTo("comment_requests"))
                .body("error.details.limit", equalTo(0))
                .body("error.details.reset_at", equalTo("2026-12-01T00:00:00Z"));
        assertThat(calls("/fb/v24.0/" + PAGE + "_5554/comments")).isZero();
        assertThat(FakeUpstreams.ACCESS_REQUESTS.get(account)).isNull();
        assertThat(commentRequests()).isEmpty();
    }

    @Test
    void aPlatformFailureIsAProviderErrorAndItsCommentRequestIsReleased() throws Exception {
        String account = liveAccount("facebook", PAGE, "EAAG-page-token");
        String post = publishedLive(account, "facebook", PAGE + "_5555");
        fake.register(get(urlPathEqualTo("/fb/v24.0/" + PAGE + "_5555/comments"))
                .willReturn(graphError(500, 2, "An unexpected error has occurred. Please retry your request later.")));

        as(workspace, Mode.LIVE)
                .get("/comments?post_id=" + post)
                .then()
                .statusCode(502)
                .body("error.code", equalTo("provider_error"))
                .body("error.details.account_id", equalTo(account))
                .body("error.details.platform", equalTo("facebook"))
                .body("error.details.provider_status", equalTo(500))
                .body("error.details.provider_code", equalTo("2"));
        assertThat(commentRequests()).isEqualTo(Map.of("released", 1L));
        assertThat(PostsTestSupport.count(
                        "select count(*) from post_targets where post_id = ? and comments_read_at is not null", post))
                .isZero();
    }

    @Test
    void anOversizedOrMalformedAnswerIsAPreciseProviderErrorThatEchoesNothing() throws Exception {
        String account = liveAccount("facebook", PAGE, "EAAG-page-token");
        String post = publishedLive(account, "facebook", PAGE + "_5599");
        fake.register(get(urlPathEqualTo("/fb/v24.0/" + PAGE + "_5599/comments"))
                .willReturn(aResponse()
                        .withHeader("Content-Type", "application/json")
                        .withBody("{\"data\":[{\"message\":\"" + "x".repeat(3 << 20) + "\"}]}")
                        .withChunkedDribbleDelay(4, 40)));

        as(workspace, Mode.LIVE)
                .get("/comments?post_id=" + post)
                .then()
                .statusCode(502)
                .body("error.code", equalTo("provider_error"))
                .body(
                        "error.message",
                        equalTo("Facebook answered, but its answer was over the 1048576-byte limit and was not read."))
                .body("error.details.platform", equalTo("facebook"))
                .body("error.details.reason", equalTo("answer_too_large"))
                .body("error.details.limit_bytes", equalTo(1048576));

        fake.register(get(urlPathEqualTo("/fb/v24.0/" + PAGE + "_5599/comments"))
                .willReturn(aResponse()
                        .withHeader("Content-Type", "application/json")
                        .withBody("{\"data\":[{\"message\":\"a comment cut sh")));

        String answer = as(workspace, Mode.LIVE)
                .get("/comments?post_id=" + post)
                .then()
                .statusCode(502)
                .body("error.code", equalTo("provider_error"))
                .body("error.details.reason", equalTo("answer_not_json"))
                .extract()
                .asString();
        assertThat(answer).doesNotContain("a comment cut");
        assertThat(commentRequests()).isEqualTo(Map.of("released", 2L));
    }

    @Test
    void thePlatformsRateLimitIsAServiceUnavailableWithItsRetryAfterAndNothingCharged() throws Exception {
        String account = liveAccount("youtube", "UCbrandChannel", "ya29.token");
        String post = publishedLive(account, "youtube", "rateLimited1");
        fake.register(get(urlPathEqualTo("/youtube/v3/commentThreads"))
                .withQueryParam("videoId", WireMock.equalTo("rateLimited1"))
                .willReturn(aResponse()
                        .withStatus(403)
                        .withHeader("Content-Type", "application/json")
                        .withHeader("Retry-After", "120")
                        .withBody("""
                                {"error":{"code":403,"message":"The request cannot be completed because you have exceeded your quota.",
                                 "errors":[{"message":"quota","domain":"youtube.quota","reason":"quotaExceeded"}]}}""")));

        as(workspace, Mode.LIVE)
                .get("/comments?post_id=" + post)
                .then()
                .statusCode(503)
                .header("Retry-After", "120")
                .body("error.code", equalTo("service_unavailable"))
                .body(
                        "error.message",
                        equalTo(
                                "YouTube is limiting Herald's calls for this account (quotaExceeded); try again in 120 seconds."))
                .body("error.details.size()", equalTo(0));
        assertThat(commentRequests()).isEqualTo(Map.of("released", 1L));
    }

    @Test
    void aRevokedGrantListsWhatWasReadAndRefusesRepliesWithAConflict() throws Exception {
        String account = liveAccount("facebook", PAGE, "EAAG-page-token");
        String post = publishedLive(account, "facebook", PAGE + "_5556");
        stubFacebookComments(PAGE + "_5556", "EAAG-page-token");
        as(workspace, Mode.LIVE)
                .get("/comments?post_id=" + post)
                .then()
                .statusCode(200)
                .body("data", hasSize(2));
        FakeUpstreams.revokeGrant(account);
        windowPassed(post);

        as(workspace, Mode.LIVE)
                .get("/comments?post_id=" + post)
                .then()
                .statusCode(200)
                .body("data", hasSize(2));
        assertThat(calls("/fb/v24.0/" + PAGE + "_5556/comments")).isEqualTo(1);
        assertThat(commentRequests()).isEqualTo(Map.of("consumed", 1L, "released", 1L));

        as(workspace, Mode.LIVE)
                .body("{\"comment_id\":\"" + stableId(account, PAGE + "_5556_900") + "\",\"text\":\"Hi\"}")
                .post("/comments")
                .then()
                .statusCode(409)
                .body("error.code", equalTo("conflict"))
                .body("error.message", equalTo("The account's grant was revoked; reconnect it."))
                .body("error.details.reason", equalTo("account_disconnected"))
                .body("error.details.account_id", equalTo(account));
        assertThat(commentRequests()).isEqualTo(Map.of("consumed", 1L, "released", 2L));
    }

    @Test
    void liveTikTokAndPinterestHaveNoComments() {
        String tiktok = liveAccount("tiktok", "tiktok-open-id", "act.token");
        String pinterest = liveAccount("pinterest", "pinner", "pina.token");
        as(workspace, Mode.LIVE)
                .get("/comments?account_id=" + tiktok)
                .then()
                .statusCode(422)
                .body("error.code", equalTo("comments_unavailable"))
                .body("error.message", matchesPattern("^TikTok's public APIs .*"));
        as(workspace, Mode.LIVE)
                .get("/comments?account_id=" + pinterest)
                .then()
                .statusCode(422)
                .body("error.code", equalTo("comments_unavailable"));
        assertThat(fake.find(
                        anyRequestedFor(anyUrl()).withHeader("Authorization", WireMock.equalTo("Bearer act.token"))))
                .isEmpty();
        assertThat(commentRequests()).isEmpty();
    }
}
