package dev.herald.fakes;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Top-level comments on a published post, as posts-service posts a first comment: each shows in the platform's later
 * reads and in the journal, and the control API's {@code refuse} makes the platform refuse one, keeping nothing.
 */
@QuarkusTest
class FirstCommentFakesTest {

    @BeforeEach
    void reset() {
        OAuthDance.resetFakes();
    }

    @Test
    void youtubeStartsAThreadOnAPublishedVideoWithCommentThreadsInsert() throws Exception {
        String token = OtherPlatformFakesTest.youtubeToken(CommentsFakesTest.YOUTUBE_COMMENTS);
        String video = CommentsFakesTest.youtubeVideo(token);

        String id = given().auth()
                .oauth2(token)
                .contentType(ContentType.JSON)
                .queryParam("part", "snippet")
                .body(Map.of(
                        "snippet",
                        Map.of(
                                "channelId",
                                "UCq3HeraldFakeChannel0001",
                                "videoId",
                                video,
                                "topLevelComment",
                                Map.of("snippet", Map.of("textOriginal", "Recipe in the description")))))
                .post("/youtube/youtube/v3/commentThreads")
                .then()
                .statusCode(200)
                .body("kind", equalTo("youtube#commentThread"))
                .body("snippet.videoId", equalTo(video))
                .body("snippet.topLevelComment.snippet.textOriginal", equalTo("Recipe in the description"))
                .body("snippet.topLevelComment.snippet.authorChannelId.value", equalTo("UCq3HeraldFakeChannel0001"))
                .extract()
                .path("snippet.topLevelComment.id");

        // Newest first: the channel's thread leads the video's threads.
        given().auth()
                .oauth2(token)
                .queryParams(Map.of("part", "snippet", "videoId", video, "textFormat", "plainText"))
                .get("/youtube/youtube/v3/commentThreads")
                .then()
                .statusCode(200)
                .body("items[0].id", equalTo(id))
                .body("items[0].snippet.topLevelComment.snippet.textDisplay", equalTo("Recipe in the description"));
        // A video the fake never published is YouTube's 404.
        given().auth()
                .oauth2(token)
                .contentType(ContentType.JSON)
                .queryParam("part", "snippet")
                .body(Map.of(
                        "snippet",
                        Map.of("videoId", "nope", "topLevelComment", Map.of("snippet", Map.of("textOriginal", "x")))))
                .post("/youtube/youtube/v3/commentThreads")
                .then()
                .statusCode(404)
                .body("error.errors[0].reason", equalTo("videoNotFound"));
    }

    @Test
    void anArmedRefusalRefusesTheCommentInTheGraphShapeAndKeepsNothing() {
        String token = MetaFakesTest.facebookPageToken(CommentsFakesTest.FACEBOOK_COMMENTS);
        String post = CommentsFakesTest.facebookPost(token);
        given().contentType(ContentType.JSON)
                .body("{\"kind\":\"refuse\",\"method\":\"POST\",\"path\":\"/v24\\\\.0/[0-9_]+/comments\"}")
                .post("/_fakes/facebook/failures")
                .then()
                .statusCode(201);

        given().header("Authorization", "Bearer " + token)
                .formParams(Map.of("message", "First!"))
                .post("/facebook/v24.0/" + post + "/comments")
                .then()
                .statusCode(400)
                .body("error.code", equalTo(368))
                .body("error.is_transient", nullValue());
        given().header("Authorization", "Bearer " + token)
                .queryParams(Map.of("filter", "stream"))
                .get("/facebook/v24.0/" + post + "/comments")
                .then()
                .statusCode(200)
                .body("data", hasSize(3))
                .body("data.message", not(hasItem("First!")));

        // The next one is taken, and shows on the post.
        given().header("Authorization", "Bearer " + token)
                .formParams(Map.of("message", "First!"))
                .post("/facebook/v24.0/" + post + "/comments")
                .then()
                .statusCode(200);
        given().header("Authorization", "Bearer " + token)
                .queryParams(Map.of("filter", "stream"))
                .get("/facebook/v24.0/" + post + "/comments")
                .then()
                .body("data.message", hasItem("First!"));
        List<Map<String, Object>> journal = given().get("/_fakes/facebook/requests")
                .then()
                .extract()
                .jsonPath()
                .getList("data");
        assertThat(journal)
                .filteredOn(entry -> "POST".equals(entry.get("method"))
                        && String.valueOf(entry.get("path")).endsWith("/comments"))
                .extracting(entry -> entry.get("status"), entry -> entry.get("failure"))
                .containsExactly(tuple(400, "refuse"), tuple(200, null));
    }
}
