package dev.herald.system;

import static dev.herald.system.RunningSuite.fakes;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.system.HostedConnect.LiveWorkspace;
import io.restassured.path.json.JsonPath;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Live carousels, Reels and stories at Instagram and Facebook through the gateway, against the provider fakes: each
 * post is checked by the requests the fake received, in the shape each platform documents (Instagram's child
 * containers and {@code CAROUSEL} container; Facebook's unpublished photos and {@code attached_media}), and by what the
 * fake shows published. HTTP only.
 */
@ResourceLock(RunningSuite.FACEBOOK_FAKE)
@ResourceLock(RunningSuite.INSTAGRAM_FAKE)
class LiveMetaCarouselIT {
    private static final String USER_ID = "17841400000000001";
    private static final String PAGE_ID = "108765432109876";
    private final ObjectMapper mapper = new ObjectMapper();

    @Test
    void aFiveImageCarouselPublishesToInstagramAndFacebookAsEachDocumentsIt() throws Exception {
        LiveWorkspace live = LiveWorkspace.create("Live Meta carousel");
        String instagram = account(live, "instagram");
        String facebook = account(live, "facebook");
        FakeRequests.clear("instagram");
        FakeRequests.clear("facebook");
        List<String> images = new ArrayList<>();
        StringBuilder media = new StringBuilder();
        for (int i = 1; i <= 5; i++) {
            images.add("https://media.example.com/tray-" + i + ".jpg");
            media.append(i == 1 ? "" : ",")
                    .append("{\"type\":\"image\",\"url\":\"")
                    .append(images.get(i - 1))
                    .append("\"}");
        }

        String caption = "Five trays " + UUID.randomUUID();
        String postId = live.post("{\"text\":\"" + caption + "\",\"account_ids\":[\"" + instagram + "\",\"" + facebook
                + "\"],\"media\":[" + media + "]}");
        JsonPath post = PostsPipelineIT.awaitFinal(live.key(), postId);

        assertThat(post.getList("data.targets.status")).containsOnly("published");
        assertThat(post.getList("data.media.url")).containsExactlyElementsOf(images);

        // Instagram: one carousel item container per image in order, the CAROUSEL container naming them, media_publish.
        List<Map<String, Object>> containers = posts(FakeRequests.of("instagram"), "/v24.0/" + USER_ID + "/media");
        assertThat(containers).hasSize(6);
        for (int i = 0; i < 5; i++) {
            assertThat(body(containers.get(i)))
                    .isEqualTo(mapper.readTree("{\"is_carousel_item\":true,\"image_url\":\"" + images.get(i) + "\"}"));
        }
        JsonNode carousel = body(containers.get(5));
        assertThat(carousel.path("media_type").asText()).isEqualTo("CAROUSEL");
        assertThat(carousel.path("caption").asText()).isEqualTo(caption);
        assertThat(carousel.path("children").asText().split(",")).hasSize(5);
        JsonPath shown = fakes().get("/_fakes/instagram/posts")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(shown.getString("data[0].media_type")).isEqualTo("CAROUSEL_ALBUM");
        assertThat(shown.getList("data[0].children.data.media_url")).containsExactlyElementsOf(images);
        List<Map<String, Object>> published =
                posts(FakeRequests.of("instagram"), "/v24.0/" + USER_ID + "/media_publish");
        assertThat(published).hasSize(1);
        assertThat(body(published.get(0)).path("creation_id").asText())
                .isEqualTo(shown.getString("data[0].container_id"));
        assertThat(target(post, "instagram").get("provider_post_id")).isEqualTo(shown.getString("data[0].id"));

        // Facebook: each photo uploaded unpublished in order, then one feed post attaching them in that order.
        List<Map<String, Object>> photos = posts(FakeRequests.of("facebook"), "/v24.0/" + PAGE_ID + "/photos");
        assertThat(photos)
                .extracting(request -> FakeRequests.form((String) request.get("body")))
                .containsExactlyElementsOf(images.stream()
                        .map(url -> Map.of("url", url, "published", "false"))
                        .toList());
        List<Map<String, Object>> feed = posts(FakeRequests.of("facebook"), "/v24.0/" + PAGE_ID + "/feed");
        assertThat(feed).hasSize(1);
        Map<String, String> form = FakeRequests.form((String) feed.get(0).get("body"));
        assertThat(form).containsEntry("message", caption).hasSize(6);
        JsonPath page = fakes().get("/_fakes/facebook/posts")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        List<String> attachedIds = page.getList("data[0].attached_photos.photo_id");
        Map<String, String> attached = new LinkedHashMap<>();
        for (int i = 0; i < 5; i++) {
            attached.put("attached_media[" + i + "]", "{\"media_fbid\":\"" + attachedIds.get(i) + "\"}");
        }
        assertThat(form).containsAllEntriesOf(attached);
        assertThat(page.getList("data[0].attached_photos.url")).containsExactlyElementsOf(images);
        assertThat(target(post, "facebook").get("provider_post_id")).isEqualTo(page.getString("data[0].id"));
    }

    @Test
    void aReelAndAStoryPublishToInstagramAsReelsAndStoriesContainers() throws Exception {
        LiveWorkspace live = LiveWorkspace.create("Live Instagram formats");
        String instagram = account(live, "instagram");
        FakeRequests.clear("instagram");

        String caption = "Crumb shot " + UUID.randomUUID();
        String reel = live.post("{\"text\":\"" + caption + "\",\"account_ids\":[\"" + instagram + "\"],"
                + "\"media\":{\"type\":\"video\",\"url\":\"https://media.example.com/crumb.mp4\"},"
                + "\"platform_options\":{\"instagram\":{\"format\":\"reel\",\"share_to_feed\":false}}}");
        assertThat(PostsPipelineIT.awaitFinal(live.key(), reel).getString("data.targets[0].status"))
                .isEqualTo("published");
        List<Map<String, Object>> containers = posts(FakeRequests.of("instagram"), "/v24.0/" + USER_ID + "/media");
        assertThat(containers).hasSize(1);
        assertThat(body(containers.get(0)))
                .isEqualTo(mapper.readTree(
                        "{\"media_type\":\"REELS\",\"video_url\":\"https://media.example.com/crumb.mp4\","
                                + "\"caption\":\"" + caption + "\",\"share_to_feed\":false}"));
        assertThat(fakes().get("/_fakes/instagram/posts")
                        .then()
                        .extract()
                        .path("data[0].media_product_type")
                        .toString())
                .isEqualTo("REELS");

        FakeRequests.clear("instagram");
        String story = live.post("{\"text\":\"Today only " + UUID.randomUUID() + "\",\"account_ids\":[\"" + instagram
                + "\"],\"media\":{\"type\":\"image\",\"url\":\"https://media.example.com/today.jpg\"},"
                + "\"platform_options\":{\"instagram\":{\"format\":\"story\"}}}");
        JsonPath storyTarget = PostsPipelineIT.awaitFinal(live.key(), story).setRootPath("data.targets[0]");
        assertThat(storyTarget.getString("status")).isEqualTo("published");
        containers = posts(FakeRequests.of("instagram"), "/v24.0/" + USER_ID + "/media");
        // A story takes no caption: none is sent.
        assertThat(body(containers.get(0)))
                .isEqualTo(mapper.readTree(
                        "{\"media_type\":\"STORIES\",\"image_url\":\"https://media.example.com/today.jpg\"}"));
        JsonPath shown = fakes().get("/_fakes/instagram/posts").then().extract().jsonPath();
        assertThat(shown.getString("data[0].media_product_type")).isEqualTo("STORY");
        assertThat(storyTarget.getString("provider_post_id")).isEqualTo(shown.getString("data[0].id"));
    }

    @Test
    void aReelAndAStoryPublishToFacebookThroughTheirUploadSessionAndAnUnpublishedPhoto() throws Exception {
        LiveWorkspace live = LiveWorkspace.create("Live Facebook formats");
        String facebook = account(live, "facebook");
        FakeRequests.clear("facebook");

        String description = "Shaping " + UUID.randomUUID();
        String reel = live.post("{\"text\":\"" + description + "\",\"account_ids\":[\"" + facebook + "\"],"
                + "\"media\":{\"type\":\"video\",\"url\":\"https://media.example.com/shaping.mp4\"},"
                + "\"platform_options\":{\"facebook\":{\"format\":\"reel\"}}}");
        JsonPath reelTarget = PostsPipelineIT.awaitFinal(live.key(), reel).setRootPath("data.targets[0]");
        assertThat(reelTarget.getString("status")).isEqualTo("published");
        String video = reelTarget.getString("provider_post_id");
        List<Map<String, Object>> requests = FakeRequests.of("facebook");
        assertThat(requests)
                .extracting(FakeRequests::line)
                .containsExactly(
                        "POST /v24.0/" + PAGE_ID + "/video_reels 200",
                        "POST /video-upload/v24.0/" + video + " 200",
                        "POST /v24.0/" + PAGE_ID + "/video_reels 200");
        assertThat(FakeRequests.form((String) requests.get(0).get("body"))).isEqualTo(Map.of("upload_phase", "start"));
        assertThat(FakeRequests.headers(requests.get(1)).get("file_url"))
                .containsExactly("https://media.example.com/shaping.mp4");
        assertThat(FakeRequests.authorization(requests.get(1))).startsWith("OAuth sha256:");
        assertThat(FakeRequests.form((String) requests.get(2).get("body")))
                .isEqualTo(Map.of(
                        "upload_phase",
                        "finish",
                        "video_id",
                        video,
                        "video_state",
                        "PUBLISHED",
                        "description",
                        description));
        assertThat(reelTarget.getString("url")).isEqualTo("https://www.facebook.com/reel/" + video + "/");

        FakeRequests.clear("facebook");
        String story = live.post("{\"text\":\"\",\"account_ids\":[\"" + facebook + "\"],"
                + "\"media\":{\"type\":\"image\",\"url\":\"https://media.example.com/special.jpg\"},"
                + "\"platform_options\":{\"facebook\":{\"format\":\"story\"}}}");
        JsonPath storyTarget = PostsPipelineIT.awaitFinal(live.key(), story).setRootPath("data.targets[0]");
        assertThat(storyTarget.getString("status")).isEqualTo("published");
        requests = FakeRequests.of("facebook");
        assertThat(requests)
                .extracting(FakeRequests::line)
                .containsExactly(
                        "POST /v24.0/" + PAGE_ID + "/photos 200", "POST /v24.0/" + PAGE_ID + "/photo_stories 200");
        assertThat(FakeRequests.form((String) requests.get(0).get("body")))
                .isEqualTo(Map.of("url", "https://media.example.com/special.jpg", "published", "false"));
        JsonPath shown = fakes().get("/_fakes/facebook/posts").then().extract().jsonPath();
        assertThat(FakeRequests.form((String) requests.get(1).get("body")))
                .isEqualTo(Map.of("photo_id", shown.getString("data[0].media_id")));
        assertThat(storyTarget.getString("provider_post_id")).isEqualTo(shown.getString("data[0].post_id"));
    }

    private static List<Map<String, Object>> posts(List<Map<String, Object>> requests, String path) {
        return requests.stream()
                .filter(request -> "POST".equals(request.get("method")) && path.equals(request.get("path")))
                .toList();
    }

    private JsonNode body(Map<String, Object> request) throws Exception {
        return mapper.readTree((String) request.get("body"));
    }

    private static Map<String, Object> target(JsonPath post, String platform) {
        List<Map<String, Object>> targets = post.getList("data.targets");
        return targets.stream()
                .filter(target -> platform.equals(target.get("platform")))
                .findFirst()
                .orElseThrow();
    }

    private static String account(LiveWorkspace live, String platform) {
        // The workspace's accounts after the connection: the one on this platform is the new one.
        return HostedConnect.connect(live, platform).stream()
                .filter(account -> platform.equals(account.get("platform")))
                .map(account -> (String) account.get("id"))
                .findFirst()
                .orElseThrow();
    }
}
