package dev.herald.fakes;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Several media in one post, as the fakes take and refuse them the way the platforms document: LinkedIn's MultiImage
 * (2 to 20 images the author uploaded), Pinterest's carousel pin (2 to 5 image URLs) and TikTok's photo post (1 to 35
 * photos pulled from a verified URL prefix, a cover among them).
 */
@QuarkusTest
class CarouselFakesTest {
    private static final String MEMBER = "urn:li:person:hF4k3Mbr0q";
    private static final String BOARD = "1125899906842625101";

    @BeforeEach
    void reset() {
        OAuthDance.resetFakes();
    }

    /** An image of {@code owner} uploaded through the Images API; its URN. */
    private static String uploadedImage(String token, String owner) {
        JsonPath initialized = LinkedInFakeTest.rest(token)
                .body("{\"initializeUploadRequest\":{\"owner\":\"" + owner + "\"}}")
                .post("/linkedin/rest/images?action=initializeUpload")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        given().contentType("image/jpeg")
                .body(new byte[] {1, 2, 3, 4})
                .put(URI.create(initialized.getString("value.uploadUrl")).getPath())
                .then()
                .statusCode(201);
        return initialized.getString("value.image");
    }

    private static io.restassured.response.Response multiImagePost(String token, String author, List<String> urns) {
        String images = urns.stream()
                .map(urn -> "{\"id\":\"" + urn + "\",\"altText\":\"Shot " + urn.substring(urn.length() - 3) + "\"}")
                .collect(Collectors.joining(","));
        return LinkedInFakeTest.rest(token)
                .body("{\"author\":\"" + author + "\",\"commentary\":\"Our week\",\"visibility\":\"PUBLIC\","
                        + "\"distribution\":{\"feedDistribution\":\"MAIN_FEED\",\"targetEntities\":[],"
                        + "\"thirdPartyDistributionChannels\":[]},\"content\":{\"multiImage\":{\"images\":[" + images
                        + "]}},\"lifecycleState\":\"PUBLISHED\",\"isReshareDisabledByAuthor\":false}")
                .post("/linkedin/rest/posts");
    }

    @Test
    void linkedInTakesTwoToTwentyUploadedImagesOfTheAuthorAsMultiImage() {
        String token = LinkedInFakeTest.connect("openid profile w_member_social w_organization_social")
                .getString("access_token");
        List<String> urns = new ArrayList<>();
        for (int i = 0; i < 21; i++) {
            urns.add(uploadedImage(token, MEMBER));
        }

        multiImagePost(token, MEMBER, urns.subList(0, 1))
                .then()
                .statusCode(422)
                .body("message", containsString("2 to 20 images, 1 given"));
        multiImagePost(token, MEMBER, urns)
                .then()
                .statusCode(422)
                .body("message", containsString("2 to 20 images, 21 given"));
        // An image the organization uploaded is not the member's; one never uploaded is nobody's.
        String organizations = uploadedImage(token, "urn:li:organization:90421377");
        multiImagePost(token, MEMBER, List.of(urns.get(0), organizations))
                .then()
                .statusCode(422)
                .body("message", containsString("/content/multiImage/images/1/id"));
        multiImagePost(token, MEMBER, List.of(urns.get(0), "urn:li:image:NeverUploaded00000"))
                .then()
                .statusCode(422);

        String urn = multiImagePost(token, MEMBER, urns.subList(0, 20))
                .then()
                .statusCode(201)
                .extract()
                .header("x-restli-id");
        given().get("/_fakes/linkedin/posts")
                .then()
                .statusCode(200)
                .body("data[0].id", equalTo(urn))
                .body("data[0].content.multiImage.images.id", equalTo(urns.subList(0, 20)));
        assertThat(given().get("/_fakes/linkedin/requests")
                        .then()
                        .extract()
                        .jsonPath()
                        .<String>getList("data.findAll { it.method == 'POST' && it.path == '/rest/posts' }.body"))
                .hasSize(5)
                .last()
                .asString()
                .contains("\"multiImage\"");
    }

    private static io.restassured.response.Response pin(String token, int items) {
        String list = IntStream.range(0, items)
                .mapToObj(
                        i -> "{\"url\":\"https://media.example.com/dish-" + i + ".jpg\",\"title\":\"Dish " + i + "\"}")
                .collect(Collectors.joining(","));
        return given().auth()
                .oauth2(token)
                .contentType("application/json")
                .body("{\"board_id\":\"" + BOARD + "\",\"description\":\"Five dishes\","
                        + "\"media_source\":{\"source_type\":\"multiple_image_urls\",\"items\":[" + list + "]}}")
                .post("/pinterest/v5/pins");
    }

    @Test
    void pinterestTakesACarouselOfTwoToFiveImageUrls() {
        String token = OtherPlatformFakesTest.pinterestToken().getString("access_token");

        pin(token, 1).then().statusCode(400).body("message", containsString("2 to 5 media_source.items, 1 given"));
        pin(token, 6).then().statusCode(400).body("message", containsString("6 given"));
        String id = pin(token, 5).then().statusCode(201).extract().path("id");

        given().get("/_fakes/pinterest/posts")
                .then()
                .statusCode(200)
                .body("data[0].id", equalTo(id))
                .body("data[0].media.media_type", equalTo("multiple_images"))
                .body("data[0].media.items.url[4]", equalTo("https://media.example.com/dish-4.jpg"))
                .body("data[0].media.items.title[0]", equalTo("Dish 0"));
    }

    private static JsonPath photoInit(String token, List<String> photos, int cover) {
        String list = photos.stream().map(url -> "\"" + url + "\"").collect(Collectors.joining(","));
        return given().auth()
                .oauth2(token)
                .contentType("application/json; charset=UTF-8")
                .body("""
                        {"media_type":"PHOTO","post_mode":"DIRECT_POST",
                         "post_info":{"title":"Market day","description":"Three stalls","privacy_level":"SELF_ONLY",
                                      "disable_comment":false,"auto_add_music":true},
                         "source_info":{"source":"PULL_FROM_URL","photo_cover_index":%d,"photo_images":[%s]}}""".formatted(cover, list))
                .post("/tiktok/v2/post/publish/content/init/")
                .then()
                .extract()
                .jsonPath();
    }

    private static List<String> photos(int count) {
        return IntStream.range(0, count)
                .mapToObj(i -> "https://media.example.com/stall-" + i + ".jpg")
                .toList();
    }

    @Test
    void tikTokTakesAPhotoPostOfUpToThirtyFivePhotosFromAVerifiedPrefixAndPublishesItAfterItsDownload() {
        String token = TikTokPublishingFakeTest.token();

        assertThat(photoInit(token, photos(36), 0).getString("error.code")).isEqualTo("invalid_params");
        assertThat(photoInit(token, photos(3), 3).getString("error.message")).contains("photo_cover_index");
        assertThat(photoInit(token, List.of("https://elsewhere.example.org/a.jpg"), 0)
                        .getString("error.code"))
                .isEqualTo("url_ownership_unverified");
        String publishId = photoInit(token, photos(35), 34).getString("data.publish_id");
        assertThat(publishId).isNotBlank();

        JsonPath first = TikTokPublishingFakeTest.status(token, publishId);
        assertThat(first.getString("data.status")).isEqualTo("PROCESSING_DOWNLOAD");
        JsonPath second = TikTokPublishingFakeTest.status(token, publishId);
        assertThat(second.getString("data.status")).isEqualTo("PUBLISH_COMPLETE");
        given().get("/_fakes/tiktok/posts")
                .then()
                .statusCode(200)
                .body("data[0].publish_id", equalTo(publishId))
                .body("data[0].media_type", equalTo("PHOTO"))
                .body("data[0].photo_images.size()", equalTo(35))
                .body("data[0].post_info.description", equalTo("Three stalls"));
    }
}
