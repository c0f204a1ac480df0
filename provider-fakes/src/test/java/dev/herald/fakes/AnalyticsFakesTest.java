package dev.herald.fakes;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import dev.herald.fakes.service.PublishedMetrics;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The analytics endpoints Herald's live readers call, exactly as they call them, answering
 * {@link PublishedMetrics}'s numbers for what each fake published. A read's numbers are those of the whole minutes since
 * publication at the moment the fake answered, which lies between the instants taken before and after the request.
 */
@QuarkusTest
class AnalyticsFakesTest {
    private static final DateTimeFormatter GRAPH_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssxx");
    private static final String PAGE = "108765432109876";

    @BeforeEach
    void reset() {
        OAuthDance.resetFakes();
    }

    /** The item's numbers at one of the two instants around the read (they differ only across a minute's end). */
    private static Set<PublishedMetrics.Item> around(String id, Instant published, Instant before, Instant after) {
        return new java.util.HashSet<>(java.util.List.of(
                PublishedMetrics.item(id, published, before), PublishedMetrics.item(id, published, after)));
    }

    private static JsonPath published(String platform) {
        return given().get("/_fakes/" + platform + "/posts")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
    }

    @Test
    void facebookAnswersAPagePostsSummariesSharesAndLifetimeInsightsAndThePagesCounts() {
        String token = MetaFakesTest.facebookPageToken();
        String post = given().header("Authorization", "Bearer " + token)
                .formParams(Map.of("message", "Fresh bread at 7"))
                .post("/facebook/v24.0/" + PAGE + "/feed")
                .then()
                .statusCode(200)
                .extract()
                .path("id");
        Instant publishedAt = OffsetDateTime.parse(published("facebook").getString("data[0].created_time"), GRAPH_TIME)
                .toInstant();

        Instant before = Instant.now();
        JsonPath body = given().header("Authorization", "Bearer " + token)
                .queryParam(
                        "fields",
                        "shares,reactions.summary(total_count).limit(0),comments.summary(total_count).limit(0),"
                                + "insights.metric(post_impressions,post_impressions_unique)")
                .get("/facebook/v24.0/" + post)
                .then()
                .statusCode(200)
                .body("id", equalTo(post))
                .body("reactions.data", hasSize(0))
                .body("comments.data", hasSize(0))
                .body("insights.data", hasSize(2))
                .body("insights.data[0].name", equalTo("post_impressions"))
                .body("insights.data[0].period", equalTo("lifetime"))
                .body("insights.data[1].id", equalTo(post + "/insights/post_impressions_unique/lifetime"))
                .extract()
                .jsonPath();
        Instant after = Instant.now();
        PublishedMetrics.Item read = PublishedMetrics.item(post, publishedAt, before);
        assertThat(around(post, publishedAt, before, after)).anySatisfy(expected -> {
            assertThat(body.getLong("insights.data[0].values[0].value")).isEqualTo(expected.views());
            assertThat(body.getLong("insights.data[1].values[0].value")).isEqualTo(expected.reach());
            assertThat(body.getLong("reactions.summary.total_count")).isEqualTo(expected.likes());
            assertThat(body.getLong("comments.summary.total_count")).isEqualTo(expected.comments());
            assertThat(body.getLong("shares.count")).isEqualTo(expected.shares());
        });
        assertThat(read.views()).isPositive();

        JsonPath page = given().header("Authorization", "Bearer " + token)
                .queryParam("fields", "followers_count,fan_count")
                .get("/facebook/v24.0/" + PAGE)
                .then()
                .statusCode(200)
                .body("id", equalTo(PAGE))
                .extract()
                .jsonPath();
        assertThat(page.getMap("")).containsOnlyKeys("id", "followers_count", "fan_count");
        long views = body.getLong("insights.data[0].values[0].value");
        assertThat(page.getLong("followers_count")).isEqualTo(1000 + views / 10);
        assertThat(page.getLong("fan_count")).isEqualTo(900 + views / 12);

        given().header("Authorization", "Bearer " + token)
                .queryParam("fields", "shares")
                .get("/facebook/v24.0/" + PAGE + "_1234567890123456")
                .then()
                .statusCode(400)
                .body("error.code", equalTo(100))
                .body("error.error_subcode", equalTo(33));
        given().header("Authorization", "Bearer " + token)
                .queryParam("fields", "impressions")
                .get("/facebook/v24.0/" + post)
                .then()
                .statusCode(400)
                .body("error.code", equalTo(100))
                .body(
                        "error.message",
                        equalTo("(#100) Tried accessing nonexisting field (impressions) on node type (PagePost)"));
        given().header("Authorization", "Bearer EAAGnotIssued")
                .queryParam("fields", "shares")
                .get("/facebook/v24.0/" + post)
                .then()
                .statusCode(400)
                .body("error.code", equalTo(190));
    }

    @Test
    void instagramAnswersAMediasLifetimeInsightsAndTheProfilesCounts() {
        String token = MetaFakesTest.instagramToken();
        String container = given().header("Authorization", "Bearer " + token)
                .contentType(ContentType.JSON)
                .body("{\"image_url\":\"https://example.com/cake.jpg\",\"caption\":\"Cake day\"}")
                .post("/instagram/v24.0/17841400000000001/media")
                .then()
                .statusCode(200)
                .extract()
                .path("id");
        String media = given().header("Authorization", "Bearer " + token)
                .formParams(Map.of("creation_id", container))
                .post("/instagram/v24.0/17841400000000001/media_publish")
                .then()
                .statusCode(200)
                .extract()
                .path("id");
        Instant publishedAt = OffsetDateTime.parse(published("instagram").getString("data[0].timestamp"), GRAPH_TIME)
                .toInstant();

        Instant before = Instant.now();
        JsonPath body = given().header("Authorization", "Bearer " + token)
                .queryParam("metric", "views,reach,likes,comments,shares,saved")
                .get("/instagram/v24.0/" + media + "/insights")
                .then()
                .statusCode(200)
                .body("data", hasSize(6))
                .body("data.name", equalTo(java.util.List.of("views", "reach", "likes", "comments", "shares", "saved")))
                .body("data[5].period", equalTo("lifetime"))
                .body("data[0].id", equalTo(media + "/insights/views/lifetime"))
                .extract()
                .jsonPath();
        Instant after = Instant.now();
        assertThat(around(media, publishedAt, before, after))
                .contains(new PublishedMetrics.Item(
                        body.getLong("data[0].values[0].value"), body.getLong("data[1].values[0].value"),
                        body.getLong("data[2].values[0].value"), body.getLong("data[3].values[0].value"),
                        body.getLong("data[4].values[0].value"), body.getLong("data[5].values[0].value")));

        JsonPath me = given().header("Authorization", "Bearer " + token)
                .queryParam("fields", "followers_count,follows_count,media_count")
                .get("/instagram/v24.0/me")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(me.getMap("")).containsOnlyKeys("id", "followers_count", "follows_count", "media_count");
        assertThat(me.getLong("followers_count")).isEqualTo(1000 + body.getLong("data[0].values[0].value") / 10);
        assertThat(me.getInt("follows_count")).isEqualTo(101);
        assertThat(me.getInt("media_count")).isEqualTo(1);

        given().header("Authorization", "Bearer " + token)
                .queryParam("metric", "impressions,plays")
                .get("/instagram/v24.0/" + media + "/insights")
                .then()
                .statusCode(400)
                .body("error.code", equalTo(100));
        given().header("Authorization", "Bearer " + token)
                .queryParam("metric", "views")
                .get("/instagram/v24.0/17999999999999999/insights")
                .then()
                .statusCode(400)
                .body("error.error_subcode", equalTo(33));
    }

    @Test
    void youtubeAnswersAVideosAndTheChannelsStatisticsAsStrings() throws Exception {
        String token = OtherPlatformFakesTest.youtubeUploadToken();
        String session = given().auth()
                .oauth2(token)
                .contentType(ContentType.JSON)
                .header("X-Upload-Content-Length", 1000)
                .header("X-Upload-Content-Type", "video/mp4")
                .queryParams(Map.of("uploadType", "resumable", "part", "snippet,status"))
                .body("{\"snippet\":{\"title\":\"Garden tour\"},\"status\":{\"privacyStatus\":\"public\"}}")
                .post("/youtube/upload/youtube/v3/videos")
                .then()
                .statusCode(200)
                .extract()
                .header("Location");
        String video = given().auth()
                .oauth2(token)
                .contentType("video/mp4")
                .body(new byte[1000])
                .put(session)
                .then()
                .statusCode(200)
                .extract()
                .path("id");
        Instant publishedAt = Instant.parse(published("youtube").getString("data[0].snippet.publishedAt"));

        Instant before = Instant.now();
        JsonPath body = given().auth()
                .oauth2(token)
                .queryParams(Map.of("part", "statistics", "id", video))
                .get("/youtube/youtube/v3/videos")
                .then()
                .statusCode(200)
                .body("kind", equalTo("youtube#videoListResponse"))
                .body("items", hasSize(1))
                .body("items[0].id", equalTo(video))
                .body("items[0].statistics.favoriteCount", equalTo("0"))
                .extract()
                .jsonPath();
        Instant after = Instant.now();
        Function<String, Long> count = field -> Long.parseLong(body.getString("items[0].statistics." + field));
        assertThat(around(video, publishedAt, before, after)).anySatisfy(expected -> {
            assertThat(count.apply("viewCount")).isEqualTo(expected.views());
            assertThat(count.apply("likeCount")).isEqualTo(expected.likes());
            assertThat(count.apply("commentCount")).isEqualTo(expected.comments());
        });

        given().auth()
                .oauth2(token)
                .queryParams(Map.of("part", "statistics", "id", "AAAAAAAAAAA"))
                .get("/youtube/youtube/v3/videos")
                .then()
                .statusCode(200)
                .body("items", hasSize(0))
                .body("pageInfo.totalResults", equalTo(0));
        JsonPath channel = given().auth()
                .oauth2(token)
                .queryParams(Map.of("part", "statistics", "id", "UCq3HeraldFakeChannel0001"))
                .get("/youtube/youtube/v3/channels")
                .then()
                .statusCode(200)
                .body("items", hasSize(1))
                .body("items[0].statistics.hiddenSubscriberCount", equalTo(false))
                .body("items[0].statistics.videoCount", equalTo("1"))
                .extract()
                .jsonPath();
        assertThat(channel.getString("items[0].statistics.viewCount"))
                .isEqualTo(body.getString("items[0].statistics.viewCount"));
        assertThat(channel.getMap("items[0]")).doesNotContainKey("snippet");
        given().auth()
                .oauth2(token)
                .queryParams(Map.of("part", "statistics", "mine", "true"))
                .get("/youtube/youtube/v3/channels")
                .then()
                .statusCode(200)
                .body("items[0].id", equalTo("UCq3HeraldFakeChannel0001"));
        given().auth()
                .oauth2(token)
                .queryParams(Map.of("part", "statistics", "id", "UCsomeoneElse"))
                .get("/youtube/youtube/v3/channels")
                .then()
                .statusCode(200)
                .body("items", hasSize(0));
    }

    @Test
    void linkedinAnswersAPostsSocialActionsSummaryToTheScopeThatReadsItsAuthor() {
        String token = LinkedInFakeTest.connect("openid profile w_member_social r_member_social")
                .getString("access_token");
        String urn = LinkedInFakeTest.createPost(token, "urn:li:person:hF4k3Mbr0q", "Hello")
                .then()
                .statusCode(201)
                .extract()
                .header("x-restli-id");
        Instant publishedAt = Instant.ofEpochMilli(published("linkedin").getLong("data[0].createdAt"));
        String encoded = urn.replace(":", "%3A");

        Instant before = Instant.now();
        JsonPath body = given().header("Authorization", "Bearer " + token)
                .header("LinkedIn-Version", "202601")
                .header("X-Restli-Protocol-Version", "2.0.0")
                .urlEncodingEnabled(false)
                .get("/linkedin/rest/socialActions/" + encoded)
                .then()
                .statusCode(200)
                .body("target", equalTo(urn))
                .extract()
                .jsonPath();
        Instant after = Instant.now();
        assertThat(around(urn, publishedAt, before, after)).anySatisfy(expected -> {
            assertThat(body.getLong("likesSummary.totalLikes")).isEqualTo(expected.likes());
            assertThat(body.getLong("commentsSummary.aggregatedTotalComments")).isEqualTo(expected.comments());
        });

        String writeOnly =
                LinkedInFakeTest.connect("openid profile w_member_social").getString("access_token");
        given().header("Authorization", "Bearer " + writeOnly)
                .header("LinkedIn-Version", "202601")
                .urlEncodingEnabled(false)
                .get("/linkedin/rest/socialActions/" + encoded)
                .then()
                .statusCode(403)
                .body("code", equalTo("ACCESS_DENIED"));
        given().header("Authorization", "Bearer " + token)
                .header("LinkedIn-Version", "202601")
                .urlEncodingEnabled(false)
                .get("/linkedin/rest/socialActions/urn%3Ali%3Ashare%3A1")
                .then()
                .statusCode(404);
    }

    @Test
    void pinterestAnswersAPinsDailyAndSummaryMetricsAndTheAccountsCounts() {
        String token = OtherPlatformFakesTest.pinterestToken().getString("access_token");
        String pin = given().auth()
                .oauth2(token)
                .contentType(ContentType.JSON)
                .body("{\"board_id\":\"1125899906842625101\",\"description\":\"Soup\",\"media_source\":"
                        + "{\"source_type\":\"image_url\",\"url\":\"https://example.com/soup.jpg\"}}")
                .post("/pinterest/v5/pins")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        Instant publishedAt = LocalDateTime.parse(published("pinterest").getString("data[0].created_at"))
                .toInstant(ZoneOffset.UTC);
        LocalDate today = LocalDate.ofInstant(Instant.now(), ZoneOffset.UTC);

        Instant before = Instant.now();
        JsonPath body = given().auth()
                .oauth2(token)
                .queryParams(Map.of(
                        "start_date",
                        today.minusDays(89).toString(),
                        "end_date",
                        today.toString(),
                        "metric_types",
                        "IMPRESSION,SAVE,PIN_CLICK,OUTBOUND_CLICK"))
                .get("/pinterest/v5/pins/" + pin + "/analytics")
                .then()
                .statusCode(200)
                .body("all.daily_metrics", hasSize(90))
                .body("all.daily_metrics[0].data_status", equalTo("BEFORE_PIN_CREATED"))
                .body("all.daily_metrics[89].data_status", equalTo("READY"))
                .body("all.daily_metrics[89].date", equalTo(today.toString()))
                .extract()
                .jsonPath();
        Instant after = Instant.now();
        assertThat(around(pin, publishedAt, before, after)).anySatisfy(expected -> {
            assertThat(body.getLong("all.summary_metrics.IMPRESSION")).isEqualTo(expected.views());
            assertThat(body.getLong("all.summary_metrics.SAVE")).isEqualTo(expected.saves());
            assertThat(body.getLong("all.summary_metrics.PIN_CLICK")).isEqualTo(expected.likes());
            assertThat(body.getLong("all.summary_metrics.OUTBOUND_CLICK")).isEqualTo(expected.comments());
        });

        JsonPath account = given().auth()
                .oauth2(token)
                .get("/pinterest/v5/user_account")
                .then()
                .statusCode(200)
                .body("pin_count", equalTo(1))
                .body("following_count", equalTo(101))
                .extract()
                .jsonPath();
        assertThat(account.getLong("monthly_views")).isEqualTo(body.getLong("all.summary_metrics.IMPRESSION"));
        assertThat(account.getLong("follower_count")).isEqualTo(1000 + account.getLong("monthly_views") / 10);

        given().auth()
                .oauth2(token)
                .queryParams(Map.of(
                        "start_date", today.toString(), "end_date", today.toString(), "metric_types", "IMPRESSION"))
                .get("/pinterest/v5/pins/123456789012345678/analytics")
                .then()
                .statusCode(404)
                .body("code", equalTo(50));
        given().auth()
                .oauth2(token)
                .queryParams(Map.of(
                        "start_date",
                        today.minusDays(90).toString(),
                        "end_date",
                        today.toString(),
                        "metric_types",
                        "IMPRESSION"))
                .get("/pinterest/v5/pins/" + pin + "/analytics")
                .then()
                .statusCode(400)
                .body("code", equalTo(1));
        given().auth()
                .oauth2("pina_notIssued")
                .queryParams(Map.of(
                        "start_date", today.toString(), "end_date", today.toString(), "metric_types", "IMPRESSION"))
                .get("/pinterest/v5/pins/" + pin + "/analytics")
                .then()
                .statusCode(401);
    }
}
