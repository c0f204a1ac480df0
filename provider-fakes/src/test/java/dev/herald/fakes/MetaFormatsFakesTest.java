package dev.herald.fakes;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Instagram's carousels, Reels and stories and Facebook's multi-photo posts, Reels and stories, as the fakes take and
 * refuse them.
 */
@QuarkusTest
class MetaFormatsFakesTest {
    private static final String IG = "/instagram/v24.0/";
    private static final String USER = "17841400000000001";
    private static final String FB = "/facebook/v24.0/";
    private static final String PAGE = "108765432109876";

    private String igToken;

    @BeforeEach
    void reset() {
        OAuthDance.resetFakes();
        igToken = MetaFakesTest.instagramToken();
    }

    private ValidatableResponse container(String json) {
        return given().header("Authorization", "Bearer " + igToken)
                .contentType(ContentType.JSON)
                .body(json)
                .post(IG + USER + "/media")
                .then();
    }

    private String child(String json) {
        return container(json).statusCode(200).extract().path("id");
    }

    private ValidatableResponse publish(String container) {
        return given().header("Authorization", "Bearer " + igToken)
                .contentType(ContentType.JSON)
                .body("{\"creation_id\":\"" + container + "\"}")
                .post(IG + USER + "/media_publish")
                .then();
    }

    private ValidatableResponse read(String id, String fields) {
        return given().header("Authorization", "Bearer " + igToken)
                .queryParam("fields", fields)
                .get(IG + id)
                .then()
                .statusCode(200);
    }

    @Test
    void aCarouselOfFinishedChildrenIsPublishedAsOneAlbumWithItsChildrenInOrder() {
        String image = child("{\"is_carousel_item\":true,\"image_url\":\"https://example.com/1.jpg\"}");
        String video = child(
                "{\"is_carousel_item\":true,\"media_type\":\"VIDEO\",\"video_url\":\"https://example.com/2.mp4\"}");
        String carousel =
                child("{\"media_type\":\"CAROUSEL\",\"children\":\"" + image + "," + video + "\",\"caption\":\"Two\"}");
        read(carousel, "status_code").body("status_code", equalTo("FINISHED"));

        String media = publish(carousel).statusCode(200).extract().path("id");

        read(media, "media_type,media_product_type,caption,children")
                .body("media_type", equalTo("CAROUSEL_ALBUM"))
                .body("media_product_type", equalTo("FEED"))
                .body("caption", equalTo("Two"))
                .body("children.data.media_type", contains("IMAGE", "VIDEO"))
                .body("children.data.media_url", contains("https://example.com/1.jpg", "https://example.com/2.mp4"));
        read(image, "status_code").body("status_code", equalTo("PUBLISHED"));
        // Its children went with it: none makes a second carousel.
        String other = child("{\"is_carousel_item\":true,\"image_url\":\"https://example.com/3.jpg\"}");
        container("{\"media_type\":\"CAROUSEL\",\"children\":\"" + image + "," + other + "\"}")
                .statusCode(400)
                .body("error.message", containsString("PUBLISHED"));
    }

    @Test
    void aCarouselIsRefusedWithoutChildrenWithFewerThanTwoOrMoreThanTenOrWithANonCarouselChild() {
        container("{\"media_type\":\"CAROUSEL\",\"caption\":\"None\"}")
                .statusCode(400)
                .body("error.code", equalTo(100))
                .body("error.message", containsString("children"));
        String one = child("{\"is_carousel_item\":true,\"image_url\":\"https://example.com/1.jpg\"}");
        container("{\"media_type\":\"CAROUSEL\",\"children\":\"" + one + "\"}")
                .statusCode(400)
                .body("error.message", containsString("2 to 10"));
        List<String> eleven = new ArrayList<>();
        for (int i = 0; i < 11; i++) {
            eleven.add(child("{\"is_carousel_item\":true,\"image_url\":\"https://example.com/" + i + ".jpg\"}"));
        }
        container("{\"media_type\":\"CAROUSEL\",\"children\":\"" + String.join(",", eleven) + "\"}")
                .statusCode(400)
                .body("error.message", containsString("got 11"));
        String feedImage = child("{\"image_url\":\"https://example.com/feed.jpg\"}");
        container("{\"media_type\":\"CAROUSEL\",\"children\":\"" + one + "," + feedImage + "\"}")
                .statusCode(400)
                .body("error.message", containsString("not a carousel item of this account"));
        container("{\"media_type\":\"CAROUSEL\",\"children\":\"" + one + ",12345678901234567\"}")
                .statusCode(400)
                .body("error.message", containsString("not a carousel item of this account"));
        // A carousel item is published only through its carousel; a feed VIDEO is a Reel now.
        publish(one).statusCode(400).body("error.message", containsString("carousel"));
        container("{\"media_type\":\"VIDEO\",\"video_url\":\"https://example.com/v.mp4\"}")
                .statusCode(400);
    }

    @Test
    void aStoryIgnoresItsCaptionAndIsListedAmongTheStoriesNotTheMedia() {
        String story =
                child("{\"media_type\":\"STORIES\",\"image_url\":\"https://example.com/s.jpg\",\"caption\":\"x\"}");
        String media = publish(story).statusCode(200).extract().path("id");
        String reel = child("{\"media_type\":\"REELS\",\"video_url\":\"https://example.com/r.mp4\",\"caption\":\"R\"}");
        String reelMedia = publish(reel).statusCode(200).extract().path("id");

        read(media, "media_type,media_product_type,caption")
                .body("media_type", equalTo("IMAGE"))
                .body("media_product_type", equalTo("STORY"))
                .body("caption", nullValue());
        read(reelMedia, "media_type,media_product_type")
                .body("media_type", equalTo("VIDEO"))
                .body("media_product_type", equalTo("REELS"));
        given().header("Authorization", "Bearer " + igToken)
                .get(IG + USER + "/stories")
                .then()
                .statusCode(200)
                .body("data.id", contains(media));
        given().header("Authorization", "Bearer " + igToken)
                .get(IG + USER + "/media")
                .then()
                .statusCode(200)
                .body("data.id", contains(reelMedia));
    }

    private ValidatableResponse facebook(String pageToken, String edge, Map<String, ?> form) {
        return given().header("Authorization", "Bearer " + pageToken)
                .formParams(form)
                .post(FB + PAGE + "/" + edge)
                .then();
    }

    private static String photoOf(String pageToken, String url) {
        return given().header("Authorization", "Bearer " + pageToken)
                .formParams(Map.of("url", url, "published", "false"))
                .post(FB + PAGE + "/photos")
                .then()
                .statusCode(200)
                .body("post_id", nullValue())
                .extract()
                .path("id");
    }

    @Test
    void aMultiPhotoPostAttachesUnpublishedPhotosInOrderEachOnce() {
        String token = MetaFakesTest.facebookPageToken();
        String first = photoOf(token, "https://example.com/a.jpg");
        String second = photoOf(token, "https://example.com/b.jpg");

        String post = facebook(
                        token,
                        "feed",
                        Map.of(
                                "message",
                                "Two loaves",
                                "attached_media[0]",
                                "{\"media_fbid\":\"" + first + "\"}",
                                "attached_media[1]",
                                "{\"media_fbid\":\"" + second + "\"}"))
                .statusCode(200)
                .extract()
                .path("id");

        given().header("Authorization", "Bearer " + token)
                .queryParam("fields", "message,attachments")
                .get(FB + post)
                .then()
                .statusCode(200)
                .body("attachments.data[0].type", equalTo("album"))
                .body("attachments.data[0].subattachments.data.target.id", contains(first, second));
        // Unpublished photos never showed on the feed on their own.
        given().header("Authorization", "Bearer " + token)
                .queryParam("fields", "id")
                .get(FB + PAGE + "/feed")
                .then()
                .body("data.id", contains(post));
        facebook(token, "feed", Map.of("attached_media[0]", "{\"media_fbid\":\"" + first + "\"}"))
                .statusCode(400)
                .body("error.message", containsString("attached_media[0]"));
        facebook(token, "feed", Map.of("attached_media[0]", "{\"media_fbid\":\"999\"}"))
                .statusCode(400);
    }

    @Test
    void aReelIsPublishedByItsSessionsFinishOnlyAfterTheHostedUpload() {
        String token = MetaFakesTest.facebookPageToken();
        String video = facebook(token, "video_reels", Map.of("upload_phase", "start"))
                .statusCode(200)
                .extract()
                .path("video_id");
        Map<String, String> finish =
                Map.of("upload_phase", "finish", "video_id", video, "video_state", "PUBLISHED", "description", "Knead");
        facebook(token, "video_reels", finish).statusCode(400).body("error.message", containsString("not uploaded"));

        given().header("Authorization", "OAuth " + token)
                .header("file_url", "https://example.com/reel.mp4")
                .post("/facebook/video-upload/v24.0/" + video)
                .then()
                .statusCode(200)
                .body("success", equalTo(true));
        facebook(token, "video_reels", finish).statusCode(200).body("success", equalTo(true));

        given().header("Authorization", "Bearer " + token)
                .queryParam("fields", "id,description")
                .get(FB + PAGE + "/video_reels")
                .then()
                .body("data.id", contains(video))
                .body("data[0].description", equalTo("Knead"));
        facebook(token, "video_reels", finish).statusCode(400);
    }

    @Test
    void photoAndVideoStoriesArePublishedFromUploadedMediaAndListedWithIt() {
        String token = MetaFakesTest.facebookPageToken();
        String photo = photoOf(token, "https://example.com/story.jpg");
        String photoStory = facebook(token, "photo_stories", Map.of("photo_id", photo))
                .statusCode(200)
                .body("success", equalTo(true))
                .extract()
                .path("post_id");
        facebook(token, "photo_stories", Map.of("photo_id", photo)).statusCode(400);

        String video = facebook(token, "video_stories", Map.of("upload_phase", "start"))
                .statusCode(200)
                .extract()
                .path("video_id");
        given().header("Authorization", "OAuth " + token)
                .header("file_url", "https://example.com/story.mp4")
                .post("/facebook/video-upload/v24.0/" + video)
                .then()
                .statusCode(200);
        String videoStory = facebook(token, "video_stories", Map.of("upload_phase", "finish", "video_id", video))
                .statusCode(200)
                .extract()
                .path("post_id");

        given().header("Authorization", "Bearer " + token)
                .queryParam("fields", "post_id,media_id,media_type,status")
                .get(FB + PAGE + "/stories")
                .then()
                .statusCode(200)
                .body("data", hasSize(2))
                .body("data.post_id", contains(videoStory, photoStory))
                .body("data.media_id", contains(video, photo))
                .body("data.media_type", contains("video", "photo"));
    }
}
