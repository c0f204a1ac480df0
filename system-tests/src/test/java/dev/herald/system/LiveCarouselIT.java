package dev.herald.system;

import static dev.herald.system.RunningSuite.fakes;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.system.HostedConnect.LiveWorkspace;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Several media in one live post, through the gateway against the provider fakes, each checked by the request shape
 * the platform documents as its fake's journal recorded it: a 5-image carousel as a LinkedIn MultiImage post (every
 * image uploaded through the Images API, every byte metered) and as a Pinterest carousel pin, and 3 photos as a TikTok
 * photo post pulled from their URLs. HTTP only.
 */
class LiveCarouselIT {
    private static final String MEMBER = "urn:li:person:hF4k3Mbr0q";
    private static final String BOARD_ID = "1125899906842625101";
    private final ObjectMapper mapper = new ObjectMapper();

    private static JsonPath awaitTarget(LiveWorkspace live, String postId) throws InterruptedException {
        return PostsPipelineIT.awaitPost(
                        live.key(),
                        postId,
                        post -> PostsPipelineIT.FINAL.contains(post.getString("data.status")),
                        Duration.ofSeconds(90).toMillis())
                .setRootPath("data.targets[0]");
    }

    private static String mediaArray(List<String> urls) {
        return urls.stream()
                .map(url -> "{\"type\":\"image\",\"url\":\"" + url + "\"}")
                .collect(Collectors.joining(",", "[", "]"));
    }

    @Test
    @ResourceLock(RunningSuite.LINKEDIN_FAKE)
    void fiveImagesAreUploadedThroughTheImagesApiAndPostedAsOneMultiImagePostWithEveryByteMetered() throws Exception {
        LiveWorkspace live = LiveWorkspace.create("Live LinkedIn carousel");
        List<Map<String, Object>> accounts = HostedConnect.connect(live, "linkedin");
        String accountId = HostedConnect.accountNamed(accounts, MEMBER);
        FakeRequests.clear("linkedin");
        long[] sizes = {100_001, 100_002, 100_003, 100_004, 100_005};
        List<String> images = new ArrayList<>();
        for (int i = 0; i < sizes.length; i++) {
            images.add(RunningSuite.get().providerFakesUrl() + "/_fakes/media/week-" + i + ".jpg?bytes=" + sizes[i]);
        }

        String postId = live.post("{\"text\":\"Our week in five pictures\",\"account_ids\":[\"" + accountId
                + "\"],\"media\":" + mediaArray(images) + "}");
        JsonPath target = awaitTarget(live, postId);

        assertThat(target.getString("status"))
                .as("target %s", target.prettify())
                .isEqualTo("published");
        List<Map<String, Object>> requests = FakeRequests.of("linkedin");
        List<String> calls = FakeRequests.lines(requests);
        // Image after image: initialized, then its bytes; then the one post.
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < sizes.length; i++) {
            expected.add("POST /rest/images 200");
            expected.add("PUT /dms-uploads/ 201");
        }
        expected.add("POST /rest/posts 201");
        assertThat(calls.stream()
                        .map(call -> call.replaceAll("/dms-uploads/[A-Za-z0-9-]+", "/dms-uploads/"))
                        .toList())
                .isEqualTo(expected);
        List<Map<String, Object>> uploads = requests.stream()
                .filter(request -> "PUT".equals(request.get("method")))
                .toList();
        for (int i = 0; i < sizes.length; i++) {
            byte[] source = RestAssured.get(images.get(i)).asByteArray();
            assertThat(uploads.get(i).get("body"))
                    .isEqualTo("<" + sizes[i] + " bytes, sha256 " + FakeRequests.sha256(source) + ">");
        }
        JsonNode post =
                mapper.readTree((String) requests.get(requests.size() - 1).get("body"));
        JsonNode multiImage = post.path("content").path("multiImage").path("images");
        assertThat(post.get("author").asText()).isEqualTo(MEMBER);
        assertThat(post.get("commentary").asText()).isEqualTo("Our week in five pictures");
        assertThat(post.path("content").has("media")).isFalse();
        assertThat(multiImage).hasSize(5);
        List<String> urns = new ArrayList<>();
        multiImage.forEach(image -> urns.add(image.get("id").asText()));
        assertThat(urns).allMatch(urn -> urn.startsWith("urn:li:image:")).doesNotHaveDuplicates();
        assertThat(fakes().get("/_fakes/linkedin/posts")
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .<String>getList("data[0].content.multiImage.images.id"))
                .isEqualTo(urns);
        // Every item fetched is metered: the destination's one reservation is the sum of the five.
        long total = java.util.Arrays.stream(sizes).sum();
        assertThat(LiveYouTubeIT.awaitMediaBytes(live.key(), total)).isEqualTo(total);
    }

    @Test
    @ResourceLock(RunningSuite.PINTEREST_FAKE)
    void fiveImagesArePinnedAsOneCarouselPinOfTheirUrlsInOrder() throws Exception {
        LiveWorkspace live = LiveWorkspace.create("Live Pinterest carousel");
        List<Map<String, Object>> accounts = HostedConnect.connect(live, "pinterest");
        String accountId = (String) accounts.get(0).get("id");
        FakeRequests.clear("pinterest");
        List<String> images = IntStream.range(0, 5)
                .mapToObj(i -> "https://media.example.com/dish-" + i + ".jpg")
                .toList();
        String description = "Five dishes " + UUID.randomUUID();

        String postId = live.post("{\"text\":\"" + description + "\",\"account_ids\":[\"" + accountId
                + "\"],\"media\":" + mediaArray(images) + ",\"platform_options\":{\"pinterest\":{\"board_id\":\""
                + BOARD_ID + "\"}}}");
        JsonPath target = awaitTarget(live, postId);

        assertThat(target.getString("status"))
                .as("target %s", target.prettify())
                .isEqualTo("published");
        List<Map<String, Object>> requests = FakeRequests.of("pinterest");
        assertThat(requests).extracting(FakeRequests::line).containsExactly("POST /v5/pins 201");
        String items = images.stream().map(url -> "{\"url\":\"" + url + "\"}").collect(Collectors.joining(","));
        assertThat(mapper.readTree((String) requests.get(0).get("body")))
                .isEqualTo(mapper.readTree("{\"board_id\":\"" + BOARD_ID + "\",\"description\":\"" + description
                        + "\",\"media_source\":{\"source_type\":\"multiple_image_urls\",\"items\":[" + items
                        + "]}}"));
        JsonPath pin = fakes().get("/_fakes/pinterest/posts")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(target.getString("provider_post_id")).isEqualTo(pin.getString("data[0].id"));
        assertThat(pin.getString("data[0].media.media_type")).isEqualTo("multiple_images");
        assertThat(pin.<String>getList("data[0].media.items.url")).isEqualTo(images);
    }

    @Test
    @ResourceLock(RunningSuite.TIKTOK_FAKE)
    void threePhotosArePostedAsOneTikTokPhotoPostPulledFromTheirUrls() throws Exception {
        LiveWorkspace live = LiveWorkspace.create("Live TikTok photos");
        List<Map<String, Object>> accounts = HostedConnect.connect(live, "tiktok");
        String accountId = (String) accounts.get(0).get("id");
        FakeRequests.clear("tiktok");
        List<String> photos = IntStream.range(0, 3)
                .mapToObj(i -> "https://media.example.com/stall-" + i + ".jpg")
                .toList();

        String postId = live.post("{\"text\":\"Market day #stalls\",\"account_ids\":[\"" + accountId
                + "\"],\"media\":" + mediaArray(photos)
                + ",\"platform_options\":{\"tiktok\":{\"privacy_level\":\"PUBLIC_TO_EVERYONE\","
                + "\"disable_comment\":true}}}");
        JsonPath target = awaitTarget(live, postId);

        assertThat(target.getString("status"))
                .as("target %s", target.prettify())
                .isEqualTo("published");
        List<Map<String, Object>> requests = FakeRequests.of("tiktok");
        List<String> calls = FakeRequests.lines(requests);
        // The creator is asked first (accounts-service may ask too), the photo post initialised once, then its status
        // fetched until TikTok has published it.
        String init = "POST /v2/post/publish/content/init/ 200";
        assertThat(calls.get(0)).isEqualTo("POST /v2/post/publish/creator_info/query/ 200");
        assertThat(calls).filteredOn(call -> call.contains("/init/")).containsExactly(init);
        assertThat(calls.subList(calls.indexOf(init) + 1, calls.size()))
                .contains("POST /v2/post/publish/status/fetch/ 200")
                .allMatch(call -> call.equals("POST /v2/post/publish/status/fetch/ 200")
                        || call.equals("POST /v2/post/publish/creator_info/query/ 200"));
        assertThat(mapper.readTree((String) requests.get(calls.indexOf(init)).get("body")))
                .isEqualTo(mapper.readTree("{\"media_type\":\"PHOTO\",\"post_mode\":\"DIRECT_POST\","
                        + "\"post_info\":{\"description\":\"Market day #stalls\",\"privacy_level\":\"PUBLIC_TO_EVERYONE\","
                        + "\"disable_comment\":true},"
                        + "\"source_info\":{\"source\":\"PULL_FROM_URL\",\"photo_cover_index\":0,\"photo_images\":"
                        + photos.stream().map(url -> "\"" + url + "\"").collect(Collectors.joining(",", "[", "]"))
                        + "}}"));
        JsonPath published = fakes().get("/_fakes/tiktok/posts")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(published.getString("data[0].media_type")).isEqualTo("PHOTO");
        assertThat(published.<String>getList("data[0].photo_images")).isEqualTo(photos);
        assertThat(target.getString("provider_post_id")).isEqualTo(published.getString("data[0].id"));
        assertThat(target.getString("url"))
                .isEqualTo("https://www.tiktok.com/@heraldfake.dance/photo/" + published.getString("data[0].id"));
    }
}
