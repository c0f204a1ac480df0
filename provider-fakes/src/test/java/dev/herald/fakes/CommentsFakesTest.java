package dev.herald.fakes;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.nullValue;

import dev.herald.fakes.service.SeededComments;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The comment endpoints Herald's live comments call, exactly as posts-service's clients call
 * them: each published item shows its {@link SeededComments}, a reply posted as the account shows in later reads where
 * the platform shows it, and ids the fake never gave out answer the platform's not-found error.
 */
@QuarkusTest
class CommentsFakesTest {
    /** What Herald's defaults ask for (accounts-service's ProvidersConfig), comment permissions included. */
    static final String FACEBOOK_COMMENTS =
            "pages_show_list,pages_read_engagement,pages_manage_posts,pages_read_user_content,"
                    + "pages_manage_engagement";

    static final String INSTAGRAM_COMMENTS =
            "instagram_business_basic,instagram_business_content_publish," + "instagram_business_manage_comments";
    static final String YOUTUBE_COMMENTS =
            "https://www.googleapis.com/auth/youtube.upload " + "https://www.googleapis.com/auth/youtube.force-ssl";

    private static final String PAGE = "108765432109876";
    private static final String IG_USER = "17841400000000001";
    private static final String ORGANIZATION = "urn:li:organization:90421377";
    private static final String MEMBER = "urn:li:person:hF4k3Mbr0q";
    private static final String LINKEDIN_VERSION = "202601";

    @BeforeEach
    void reset() {
        OAuthDance.resetFakes();
    }

    // Facebook

    /** posts-service's {@code FacebookComments} read. */
    private static final Map<String, String> FACEBOOK_READ = Map.of(
            "fields",
            "id,message,from,created_time,parent{id}",
            "filter",
            "stream",
            "order",
            "reverse_chronological",
            "limit",
            "100");

    static String facebookPost(String token) {
        return given().header("Authorization", "Bearer " + token)
                .formParams(Map.of("message", "Fresh bread at 7"))
                .post("/facebook/v24.0/" + PAGE + "/feed")
                .then()
                .statusCode(200)
                .extract()
                .path("id");
    }

    @Test
    void commentCallsNeedThePlatformsCommentPermissions() throws Exception {
        String facebook = MetaFakesTest.facebookPageToken();
        String post = facebookPost(facebook);
        given().header("Authorization", "Bearer " + facebook)
                .get("/facebook/v24.0/" + post + "/comments")
                .then()
                .statusCode(403)
                .body("error.code", equalTo(10));
        String facebookReader = MetaFakesTest.facebookPageToken(
                "pages_show_list,pages_read_engagement,pages_manage_posts," + "pages_read_user_content");
        given().header("Authorization", "Bearer " + facebookReader)
                .get("/facebook/v24.0/" + post + "/comments")
                .then()
                .statusCode(200);
        given().header("Authorization", "Bearer " + facebookReader)
                .formParams(Map.of("message", "Thanks!"))
                .post("/facebook/v24.0/" + post + "/comments")
                .then()
                .statusCode(403)
                .body("error.code", equalTo(200));

        String instagram = MetaFakesTest.instagramToken();
        given().auth()
                .oauth2(instagram)
                .get("/instagram/v24.0/" + instagramMedia(instagram) + "/comments")
                .then()
                .statusCode(403)
                .body("error.code", equalTo(10));

        String youtube = OtherPlatformFakesTest.youtubeUploadToken();
        String video = youtubeVideo(youtube);
        String thread = given().auth()
                .oauth2(youtube)
                .queryParams(Map.of("part", "snippet", "videoId", video))
                .get("/youtube/youtube/v3/commentThreads")
                .then()
                .statusCode(200)
                .extract()
                .path("items[0].id");
        given().auth()
                .oauth2(youtube)
                .contentType(ContentType.JSON)
                .queryParam("part", "snippet")
                .body(Map.of("snippet", Map.of("parentId", thread, "textOriginal", "Thanks!")))
                .post("/youtube/youtube/v3/comments")
                .then()
                .statusCode(403)
                .body("error.errors[0].reason", equalTo("insufficientPermissions"));
    }

    @Test
    void facebookStreamsAPostsCommentsNewestFirstAndAPageReplyJoinsItsParent() {
        String token = MetaFakesTest.facebookPageToken(FACEBOOK_COMMENTS);
        String post = facebookPost(token);
        List<SeededComments.Seed> seeds = SeededComments.of(post);
        String createdTime =
                given().get("/_fakes/facebook/posts").then().extract().path("data[0].created_time");

        JsonPath first = given().header("Authorization", "Bearer " + token)
                .queryParams(FACEBOOK_READ)
                .get("/facebook/v24.0/" + post + "/comments")
                .then()
                .statusCode(200)
                .body("data", hasSize(3))
                .body("paging.cursors.after", matchesPattern("[A-Za-z0-9_-]+"))
                .body("paging.next", nullValue())
                .extract()
                .jsonPath();
        // Newest first; the seeds share the post's time, so the later seed comes first.
        assertThat(first.getList("data.message"))
                .containsExactly(
                        seeds.get(2).text(), seeds.get(1).text(), seeds.get(0).text());
        String thread = first.getString("data[2].id");
        assertThat(thread).matches(post.substring(PAGE.length() + 1) + "_[0-9]{16}");
        assertThat(first.getMap("data[0].parent")).containsOnlyKeys("id").containsEntry("id", thread);
        assertThat(first.getMap("data[2]")).doesNotContainKey("parent");
        assertThat(first.getMap("data[2].from"))
                .isEqualTo(Map.of(
                        "name",
                        seeds.get(0).author().name(),
                        "id",
                        seeds.get(0).author().facebookId()));
        assertThat(first.getList("data.created_time")).containsOnly(createdTime);
        // The same comments, with the same ids, at every read.
        given().header("Authorization", "Bearer " + token)
                .queryParams(FACEBOOK_READ)
                .get("/facebook/v24.0/" + post + "/comments")
                .then()
                .body("data.id", equalTo(first.getList("data.id")));

        String reply = given().header("Authorization", "Bearer " + token)
                .formParams(Map.of("message", "Thank you, see you at 7!"))
                .post("/facebook/v24.0/" + thread + "/comments")
                .then()
                .statusCode(200)
                .body("id", matchesPattern(post.substring(PAGE.length() + 1) + "_[0-9]{16}"))
                .extract()
                .path("id");

        given().header("Authorization", "Bearer " + token)
                .queryParams(FACEBOOK_READ)
                .get("/facebook/v24.0/" + post + "/comments")
                .then()
                .statusCode(200)
                .body("data", hasSize(4))
                .body("data[0].id", equalTo(reply))
                .body("data[0].message", equalTo("Thank you, see you at 7!"))
                .body("data[0].parent.id", equalTo(thread))
                .body("data[0].from.id", equalTo(PAGE))
                .body("data[0].from.name", equalTo("Herald Fake Bakery"));
        // Graph's defaults: top-level comments only, oldest first; a comment's own edge lists its replies.
        given().header("Authorization", "Bearer " + token)
                .queryParam("fields", "id,comment_count")
                .get("/facebook/v24.0/" + post + "/comments")
                .then()
                .statusCode(200)
                .body("data", hasSize(2))
                .body("data[0].id", equalTo(thread))
                .body("data[0].comment_count", equalTo(2));
        given().header("Authorization", "Bearer " + token)
                .queryParams(Map.of("fields", "message", "limit", "1"))
                .get("/facebook/v24.0/" + thread + "/comments")
                .then()
                .statusCode(200)
                .body("data.message", equalTo(List.of(seeds.get(2).text())))
                .body("paging.next", matchesPattern("http://.+/facebook/v24\\.0/" + thread + "/comments\\?.*after=.+"));
    }

    @Test
    void facebookAnswersGraphErrorsForIdsItNeverGaveOutAndFieldsACommentLacks() {
        String token = MetaFakesTest.facebookPageToken(FACEBOOK_COMMENTS);
        String post = facebookPost(token);

        given().header("Authorization", "Bearer " + token)
                .queryParams(FACEBOOK_READ)
                .get("/facebook/v24.0/" + PAGE + "_1234567890123456/comments")
                .then()
                .statusCode(400)
                .body("error.type", equalTo("GraphMethodException"))
                .body("error.code", equalTo(100))
                .body("error.error_subcode", equalTo(33));
        given().header("Authorization", "Bearer " + token)
                .formParams(Map.of("message", "Hello?"))
                .post("/facebook/v24.0/1234567890123456_1234567890123456/comments")
                .then()
                .statusCode(400)
                .body("error.code", equalTo(100))
                .body("error.error_subcode", equalTo(33));
        given().header("Authorization", "Bearer " + token)
                .queryParam("fields", "id,reactions")
                .get("/facebook/v24.0/" + post + "/comments")
                .then()
                .statusCode(400)
                .body(
                        "error.message",
                        equalTo("(#100) Tried accessing nonexisting field (reactions) on node type (Comment)"));
        given().header("Authorization", "Bearer " + token)
                .formParams(Map.of("message", " "))
                .post("/facebook/v24.0/" + post + "/comments")
                .then()
                .statusCode(400)
                .body("error.code", equalTo(100));
        given().header("Authorization", "Bearer EAAGnotIssued")
                .queryParams(FACEBOOK_READ)
                .get("/facebook/v24.0/" + post + "/comments")
                .then()
                .statusCode(400)
                .body("error.code", equalTo(190));
    }

    // Instagram

    /** posts-service's {@code InstagramComments} read. */
    private static final Map<String, String> INSTAGRAM_READ =
            Map.of("fields", "id,text,username,timestamp,replies{id,text,username,timestamp}", "limit", "50");

    static String instagramMedia(String token) {
        String container = given().auth()
                .oauth2(token)
                .contentType(ContentType.JSON)
                .body("{\"image_url\":\"https://example.com/cake.jpg\",\"caption\":\"Cake day\"}")
                .post("/instagram/v24.0/" + IG_USER + "/media")
                .then()
                .statusCode(200)
                .extract()
                .path("id");
        return given().auth()
                .oauth2(token)
                .formParams(Map.of("creation_id", container))
                .post("/instagram/v24.0/" + IG_USER + "/media_publish")
                .then()
                .statusCode(200)
                .extract()
                .path("id");
    }

    @Test
    void instagramListsTopLevelCommentsWithTheirRepliesAndAReplyJoinsTheTopLevelComment() {
        String token = MetaFakesTest.instagramToken(INSTAGRAM_COMMENTS);
        String media = instagramMedia(token);
        List<SeededComments.Seed> seeds = SeededComments.of(media);

        JsonPath first = given().auth()
                .oauth2(token)
                .queryParams(INSTAGRAM_READ)
                .get("/instagram/v24.0/" + media + "/comments")
                .then()
                .statusCode(200)
                .body("data", hasSize(2))
                .extract()
                .jsonPath();
        assertThat(first.getList("data.text"))
                .containsExactly(seeds.get(1).text(), seeds.get(0).text());
        assertThat(first.getList("data.username"))
                .containsExactly(
                        seeds.get(1).author().instagramUsername(),
                        seeds.get(0).author().instagramUsername());
        assertThat(first.getMap("data[0]")).doesNotContainKey("replies");
        assertThat(first.getList("data[1].replies.data.text"))
                .containsExactly(seeds.get(2).text());
        String thread = first.getString("data[1].id");
        String seededReply = first.getString("data[1].replies.data[0].id");
        assertThat(thread).matches("18[0-9]{15}");

        String reply = given().auth()
                .oauth2(token)
                .queryParam("message", "Thank you!")
                .post("/instagram/v24.0/" + thread + "/replies")
                .then()
                .statusCode(200)
                .body("id", matchesPattern("18[0-9]{15}"))
                .extract()
                .path("id");
        // A reply to a reply is added to the top-level comment.
        String second = given().auth()
                .oauth2(token)
                .queryParam("message", "Glad you asked")
                .post("/instagram/v24.0/" + seededReply + "/replies")
                .then()
                .statusCode(200)
                .extract()
                .path("id");

        given().auth()
                .oauth2(token)
                .queryParams(INSTAGRAM_READ)
                .get("/instagram/v24.0/" + media + "/comments")
                .then()
                .statusCode(200)
                .body("data", hasSize(2))
                .body("data[1].replies.data.id", equalTo(List.of(seededReply, reply, second)))
                .body("data[1].replies.data[1].username", equalTo("heraldfake.studio"))
                .body("data[1].replies.data[1].text", equalTo("Thank you!"));
        given().auth()
                .oauth2(token)
                .queryParam("fields", "id,parent_id,from")
                .get("/instagram/v24.0/" + thread + "/replies")
                .then()
                .statusCode(200)
                .body("data", hasSize(3))
                .body("data[2].parent_id", equalTo(thread))
                .body("data[2].from.id", equalTo(IG_USER));
    }

    @Test
    void instagramAnswersGraphErrorsForMediaAndCommentsItNeverGaveOut() {
        String token = MetaFakesTest.instagramToken(INSTAGRAM_COMMENTS);
        String media = instagramMedia(token);

        given().auth()
                .oauth2(token)
                .queryParams(INSTAGRAM_READ)
                .get("/instagram/v24.0/17999999999999999/comments")
                .then()
                .statusCode(400)
                .body("error.code", equalTo(100))
                .body("error.error_subcode", equalTo(33));
        given().auth()
                .oauth2(token)
                .queryParam("message", "Hi")
                .post("/instagram/v24.0/18000000000000000/replies")
                .then()
                .statusCode(400)
                .body("error.code", equalTo(100))
                .body("error.error_subcode", equalTo(33));
        // A media id is no comment: it has no replies edge.
        given().auth()
                .oauth2(token)
                .queryParam("message", "Hi")
                .post("/instagram/v24.0/" + media + "/replies")
                .then()
                .statusCode(400)
                .body("error.error_subcode", equalTo(33));
        String thread = given().auth()
                .oauth2(token)
                .get("/instagram/v24.0/" + media + "/comments")
                .then()
                .extract()
                .path("data[0].id");
        given().auth()
                .oauth2(token)
                .post("/instagram/v24.0/" + thread + "/replies")
                .then()
                .statusCode(400)
                .body("error.message", equalTo("(#100) The parameter message is required."));
        given().auth()
                .oauth2(token)
                .queryParam("fields", "id,replies{id,owner}")
                .get("/instagram/v24.0/" + media + "/comments")
                .then()
                .statusCode(400)
                .body("error.code", equalTo(100));
    }

    // YouTube

    /** posts-service's {@code YouTubeComments} read. */
    private static final Map<String, String> YOUTUBE_READ =
            Map.of("part", "snippet,replies", "maxResults", "100", "order", "time", "textFormat", "plainText");

    static String youtubeVideo(String token) {
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
        return given().auth()
                .oauth2(token)
                .contentType("video/mp4")
                .body(new byte[1000])
                .put(session)
                .then()
                .statusCode(200)
                .extract()
                .path("id");
    }

    private static String youtubeReply(String token, String parentId, String text) {
        return given().auth()
                .oauth2(token)
                .contentType(ContentType.JSON)
                .queryParam("part", "snippet")
                .body(Map.of("snippet", Map.of("parentId", parentId, "textOriginal", text)))
                .post("/youtube/youtube/v3/comments")
                .then()
                .statusCode(200)
                .body("kind", equalTo("youtube#comment"))
                .body("snippet.parentId", equalTo(parentId))
                .body("snippet.textOriginal", equalTo(text))
                .body("snippet.authorChannelId.value", equalTo("UCq3HeraldFakeChannel0001"))
                .extract()
                .path("id");
    }

    @Test
    void youtubeListsAVideosThreadsWithRepliesAndAChannelReplyJoinsTheThread() throws Exception {
        String token = OtherPlatformFakesTest.youtubeToken(YOUTUBE_COMMENTS);
        String video = youtubeVideo(token);
        List<SeededComments.Seed> seeds = SeededComments.of(video);

        JsonPath first = given().auth()
                .oauth2(token)
                .queryParams(YOUTUBE_READ)
                .queryParam("videoId", video)
                .get("/youtube/youtube/v3/commentThreads")
                .then()
                .statusCode(200)
                .body("kind", equalTo("youtube#commentThreadListResponse"))
                .body("items", hasSize(2))
                .body("nextPageToken", nullValue())
                .extract()
                .jsonPath();
        assertThat(first.getList("items.snippet.topLevelComment.snippet.textDisplay"))
                .containsExactly(seeds.get(1).text(), seeds.get(0).text());
        assertThat(first.getList("items.snippet.topLevelComment.snippet.authorChannelId.value"))
                .containsExactly(
                        seeds.get(1).author().youtubeChannelId(),
                        seeds.get(0).author().youtubeChannelId());
        // Only a comment's author gets its textOriginal.
        assertThat(first.getMap("items[1].snippet.topLevelComment.snippet"))
                .doesNotContainKey("textOriginal")
                .containsEntry("videoId", video)
                .containsEntry("authorDisplayName", seeds.get(0).author().name());
        assertThat(first.getMap("items[0]")).doesNotContainKey("replies");
        String thread = first.getString("items[1].id");
        assertThat(thread)
                .isEqualTo(first.getString("items[1].snippet.topLevelComment.id"))
                .matches("Ugz[A-Za-z0-9_-]{16}4AaABAg");
        assertThat(first.getInt("items[1].snippet.totalReplyCount")).isEqualTo(1);
        assertThat(first.getList("items[1].replies.comments.snippet.textDisplay"))
                .containsExactly(seeds.get(2).text());
        assertThat(first.getString("items[1].replies.comments[0].snippet.parentId"))
                .isEqualTo(thread);

        String reply = youtubeReply(token, thread, "Tips & tricks next week");

        assertThat(reply).startsWith(thread + ".");
        given().auth()
                .oauth2(token)
                .queryParams(YOUTUBE_READ)
                .queryParam("videoId", video)
                .get("/youtube/youtube/v3/commentThreads")
                .then()
                .statusCode(200)
                .body("items[1].snippet.totalReplyCount", equalTo(2))
                .body("items[1].replies.comments[1].id", equalTo(reply))
                .body("items[1].replies.comments[1].snippet.textOriginal", equalTo("Tips & tricks next week"))
                .body("items[1].replies.comments[1].snippet.authorDisplayName", equalTo("Herald Fake Garden"));
        // textFormat html (the default) escapes the text; maxResults pages with nextPageToken.
        String next = given().auth()
                .oauth2(token)
                .queryParams(Map.of("part", "snippet,replies", "videoId", video, "maxResults", "1"))
                .get("/youtube/youtube/v3/commentThreads")
                .then()
                .statusCode(200)
                .body("items", hasSize(1))
                .body("items[0].id", equalTo(first.getString("items[0].id")))
                .extract()
                .path("nextPageToken");
        given().auth()
                .oauth2(token)
                .queryParams(Map.of("part", "replies", "videoId", video, "maxResults", "1", "pageToken", next))
                .get("/youtube/youtube/v3/commentThreads")
                .then()
                .statusCode(200)
                .body("items[0].id", equalTo(thread))
                .body("items[0].replies.comments[1].snippet.textDisplay", equalTo("Tips &amp; tricks next week"))
                .body("nextPageToken", nullValue());
    }

    @Test
    void youtubeAnswersNotFoundForAVideoOrAParentCommentItNeverGaveOut() throws Exception {
        String token = OtherPlatformFakesTest.youtubeToken(YOUTUBE_COMMENTS);
        String video = youtubeVideo(token);

        given().auth()
                .oauth2(token)
                .queryParams(YOUTUBE_READ)
                .queryParam("videoId", "AAAAAAAAAAA")
                .get("/youtube/youtube/v3/commentThreads")
                .then()
                .statusCode(404)
                .body("error.code", equalTo(404))
                .body("error.errors[0].reason", equalTo("videoNotFound"));
        given().auth()
                .oauth2(token)
                .contentType(ContentType.JSON)
                .queryParam("part", "snippet")
                .body(Map.of("snippet", Map.of("parentId", "UgzAAAAAAAAAAAAAAAAA4AaABAg", "textOriginal", "Hi")))
                .post("/youtube/youtube/v3/comments")
                .then()
                .statusCode(404)
                .body("error.errors[0].reason", equalTo("parentCommentNotFound"));
        // Replies go to top-level comments only: a reply's id is no parent.
        String seededReply = given().auth()
                .oauth2(token)
                .queryParams(YOUTUBE_READ)
                .queryParam("videoId", video)
                .get("/youtube/youtube/v3/commentThreads")
                .then()
                .extract()
                .path("items[1].replies.comments[0].id");
        given().auth()
                .oauth2(token)
                .contentType(ContentType.JSON)
                .queryParam("part", "snippet")
                .body(Map.of("snippet", Map.of("parentId", seededReply, "textOriginal", "Hi")))
                .post("/youtube/youtube/v3/comments")
                .then()
                .statusCode(404);
        given().auth()
                .oauth2("ya29.notIssued")
                .queryParams(YOUTUBE_READ)
                .queryParam("videoId", video)
                .get("/youtube/youtube/v3/commentThreads")
                .then()
                .statusCode(401)
                .body("error.errors[0].reason", equalTo("authError"));
    }

    // LinkedIn

    private static RequestSpecification linkedin(String token) {
        return given().header("Authorization", "Bearer " + token)
                .header("LinkedIn-Version", LINKEDIN_VERSION)
                .header("X-Restli-Protocol-Version", "2.0.0")
                .urlEncodingEnabled(false);
    }

    private static String encoded(String urn) {
        return URLEncoder.encode(urn, StandardCharsets.UTF_8);
    }

    @Test
    void linkedinListsAPostsCommentsAndNestsAReplyUnderTheCommentAsLinkedInDoes() {
        String token = LinkedInFakeTest.connect(
                        "openid profile w_member_social w_organization_social r_organization_social")
                .getString("access_token");
        String post = LinkedInFakeTest.createPost(token, ORGANIZATION, "Hello")
                .then()
                .statusCode(201)
                .extract()
                .header("x-restli-id");
        List<SeededComments.Seed> seeds = SeededComments.of(post);

        JsonPath first = linkedin(token)
                .queryParam("count", 100)
                .get("/linkedin/rest/socialActions/" + encoded(post) + "/comments")
                .then()
                .statusCode(200)
                .body("elements", hasSize(2))
                .body("paging.total", equalTo(2))
                .body("paging.links", hasSize(0))
                .extract()
                .jsonPath();
        assertThat(first.getList("elements.message.text"))
                .containsExactly(seeds.get(1).text(), seeds.get(0).text());
        assertThat(first.getList("elements.actor"))
                .containsExactly(
                        seeds.get(1).author().linkedinUrn(),
                        seeds.get(0).author().linkedinUrn());
        String activity = first.getString("elements[1].object");
        assertThat(activity).matches("urn:li:activity:[0-9]{19}");
        String thread = first.getString("elements[1].commentUrn");
        assertThat(thread)
                .isEqualTo("urn:li:comment:(" + activity + "," + first.getString("elements[1].id") + ")")
                .isEqualTo(first.getMap("elements[1]").get("$URN"));
        assertThat(first.getInt("elements[1].commentsSummary.totalFirstLevelComments"))
                .isEqualTo(1);
        assertThat(first.getMap("elements[1]")).doesNotContainKey("parentComment");
        // Nested comments are listed under their comment's URN only.
        linkedin(token)
                .get("/linkedin/rest/socialActions/" + encoded(thread) + "/comments")
                .then()
                .statusCode(200)
                .body("elements", hasSize(1))
                .body("elements[0].message.text", equalTo(seeds.get(2).text()))
                .body("elements[0].parentComment", equalTo(thread));

        // As posts-service replies: object the activity taken from the comment URN, parentComment the comment.
        JsonPath reply = linkedin(token)
                .contentType(ContentType.JSON)
                .body(Map.of(
                        "actor",
                        ORGANIZATION,
                        "object",
                        activity,
                        "parentComment",
                        thread,
                        "message",
                        Map.of("text", "Thanks!")))
                .post("/linkedin/rest/socialActions/" + encoded(thread) + "/comments")
                .then()
                .statusCode(201)
                .body("actor", equalTo(ORGANIZATION))
                .body("parentComment", equalTo(thread))
                .body("object", equalTo(activity))
                .body("commentUrn", matchesPattern("urn:li:comment:\\(" + activity + ",[0-9]{19}\\)"))
                .extract()
                .jsonPath();
        assertThat(linkedin(token)
                        .contentType(ContentType.JSON)
                        .body(Map.of(
                                "actor",
                                ORGANIZATION,
                                "object",
                                activity,
                                "parentComment",
                                thread,
                                "message",
                                Map.of("text", "Again")))
                        .post("/linkedin/rest/socialActions/" + encoded(thread) + "/comments")
                        .header("x-restli-id"))
                .matches("[0-9]{19}");

        linkedin(token)
                .get("/linkedin/rest/socialActions/" + encoded(thread) + "/comments")
                .then()
                .statusCode(200)
                .body("elements", hasSize(3))
                .body("elements[1].commentUrn", equalTo(reply.getString("commentUrn")))
                .body("elements[1].message.text", equalTo("Thanks!"))
                .body("elements[0].message.text", equalTo("Again"));
        linkedin(token)
                .queryParam("count", 100)
                .get("/linkedin/rest/socialActions/" + encoded(post) + "/comments")
                .then()
                .statusCode(200)
                .body("elements", hasSize(2))
                .body("elements[1].commentsSummary.totalFirstLevelComments", equalTo(3));
        linkedin(token)
                .queryParam("count", 1)
                .get("/linkedin/rest/socialActions/" + encoded(post) + "/comments")
                .then()
                .statusCode(200)
                .body("elements", hasSize(1))
                .body("paging.links[0].rel", equalTo("next"));
    }

    @Test
    void linkedinAnswersNotFoundForUrnsItNeverGaveOutAndRefusesWhatLinkedInRefuses() {
        String token = LinkedInFakeTest.connect(
                        "openid profile w_member_social w_organization_social r_organization_social")
                .getString("access_token");
        String post = LinkedInFakeTest.createPost(token, ORGANIZATION, "Hello")
                .then()
                .statusCode(201)
                .extract()
                .header("x-restli-id");
        String memberPost = LinkedInFakeTest.createPost(token, MEMBER, "Hi")
                .then()
                .statusCode(201)
                .extract()
                .header("x-restli-id");
        JsonPath listed = linkedin(token)
                .get("/linkedin/rest/socialActions/" + encoded(post) + "/comments")
                .then()
                .extract()
                .jsonPath();
        String activity = listed.getString("elements[0].object");
        String thread = listed.getString("elements[0].commentUrn");

        linkedin(token)
                .get("/linkedin/rest/socialActions/" + encoded("urn:li:share:1") + "/comments")
                .then()
                .statusCode(404)
                .body("status", equalTo(404))
                .body("code", equalTo("NOT_FOUND"));
        linkedin(token)
                .get("/linkedin/rest/socialActions/" + encoded("urn:li:comment:(" + activity + ",1)") + "/comments")
                .then()
                .statusCode(404);
        linkedin(token)
                .contentType(ContentType.JSON)
                .body(Map.of(
                        "actor",
                        ORGANIZATION,
                        "object",
                        "urn:li:activity:1",
                        "parentComment",
                        "urn:li:comment:(urn:li:activity:1,2)",
                        "message",
                        Map.of("text", "Hi")))
                .post("/linkedin/rest/socialActions/" + encoded("urn:li:comment:(urn:li:activity:1,2)") + "/comments")
                .then()
                .statusCode(404);
        // A member's post needs r_member_social to be read, as LinkedIn's social actions do.
        linkedin(token)
                .get("/linkedin/rest/socialActions/" + encoded(memberPost) + "/comments")
                .then()
                .statusCode(403)
                .body("code", equalTo("ACCESS_DENIED"));
        linkedin(token)
                .contentType(ContentType.JSON)
                .body(Map.of(
                        "actor",
                        ORGANIZATION,
                        "object",
                        activity,
                        "parentComment",
                        "urn:li:comment:(" + activity + ",2)",
                        "message",
                        Map.of("text", "Hi")))
                .post("/linkedin/rest/socialActions/" + encoded(thread) + "/comments")
                .then()
                .statusCode(422);
        linkedin(token)
                .contentType(ContentType.JSON)
                .body(Map.of(
                        "actor",
                        "urn:li:person:someoneElse",
                        "object",
                        activity,
                        "parentComment",
                        thread,
                        "message",
                        Map.of("text", "Hi")))
                .post("/linkedin/rest/socialActions/" + encoded(thread) + "/comments")
                .then()
                .statusCode(403);
    }

    // Journal and failures

    @Test
    void commentRequestsAreJournaledAndMeetArmedFailures() {
        String token = MetaFakesTest.instagramToken(INSTAGRAM_COMMENTS);
        String media = instagramMedia(token);
        String thread = given().auth()
                .oauth2(token)
                .get("/instagram/v24.0/" + media + "/comments")
                .then()
                .extract()
                .path("data[0].id");
        given().contentType(ContentType.JSON)
                .body("{\"kind\":\"rate_limit\",\"method\":\"POST\",\"path\":\"/v24\\\\.0/[0-9]+/replies\","
                        + "\"retry_after_seconds\":120}")
                .post("/_fakes/instagram/failures")
                .then()
                .statusCode(201);

        given().auth()
                .oauth2(token)
                .queryParam("message", "Thanks!")
                .post("/instagram/v24.0/" + thread + "/replies")
                .then()
                .statusCode(400)
                .header("Retry-After", "120")
                .body("error.code", equalTo(4));
        given().auth()
                .oauth2(token)
                .queryParam("message", "Thanks!")
                .post("/instagram/v24.0/" + thread + "/replies")
                .then()
                .statusCode(200);

        List<Map<String, Object>> journal = given().get("/_fakes/instagram/requests")
                .then()
                .extract()
                .jsonPath()
                .getList("data");
        assertThat(journal.subList(journal.size() - 2, journal.size()))
                .extracting(entry -> entry.get("path"), entry -> entry.get("status"), entry -> entry.get("failure"))
                .containsExactly(
                        tuple("/v24.0/" + thread + "/replies", 400, "rate_limit"),
                        tuple("/v24.0/" + thread + "/replies", 200, null));
        // The refused reply was not kept: one reply besides the seeded ones (none on the newest comment).
        given().auth()
                .oauth2(token)
                .get("/instagram/v24.0/" + thread + "/replies")
                .then()
                .statusCode(200)
                .body("data", hasSize(1));
    }
}
