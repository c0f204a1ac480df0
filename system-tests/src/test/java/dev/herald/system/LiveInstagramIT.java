package dev.herald.system;

import static dev.herald.system.RunningSuite.fakes;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.system.HostedConnect.LiveWorkspace;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Live Instagram end to end against the provider fakes: a professional account connected through the hosted page
 * (Business Login against the fake), an image post through a media container, its status and {@code media_publish},
 * checked request by request, and a container Instagram fails to process. HTTP only.
 */
@ResourceLock(RunningSuite.INSTAGRAM_FAKE)
class LiveInstagramIT {
    private static final String USER_ID = "17841400000000001";
    private static final String IMAGE = "https://media.example.com/studio.jpg";
    private final ObjectMapper mapper = new ObjectMapper();

    @Test
    void anAccountConnectedThroughTheHostedPagePublishesAnImageThroughAContainer() throws Exception {
        LiveWorkspace live = LiveWorkspace.create("Live Instagram");
        String accountId = account(live);
        FakeRequests.clear("instagram");

        String caption = "Studio light " + UUID.randomUUID();
        String postId = live.post("{\"text\":\"" + caption + "\",\"account_ids\":[\"" + accountId + "\"],"
                + "\"media\":{\"type\":\"image\",\"url\":\"" + IMAGE + "\"}}");
        JsonPath target = PostsPipelineIT.awaitFinal(live.key(), postId).setRootPath("data.targets[0]");

        List<Map<String, Object>> requests = FakeRequests.of("instagram");
        String container = fakes().get("/_fakes/instagram/posts")
                .then()
                .statusCode(200)
                .extract()
                .path("data[0].container_id");
        String media = fakes().get("/_fakes/instagram/posts").then().extract().path("data[0].id");
        String permalink =
                fakes().get("/_fakes/instagram/posts").then().extract().path("data[0].permalink");
        assertThat(requests)
                .extracting(FakeRequests::line)
                .containsExactly(
                        "POST /v24.0/" + USER_ID + "/media 200",
                        "GET /v24.0/" + container + " 200",
                        "POST /v24.0/" + USER_ID + "/media_publish 200",
                        "GET /v24.0/" + media + " 200");
        assertThat(mapper.readTree((String) requests.get(0).get("body")))
                .isEqualTo(mapper.readTree("{\"image_url\":\"" + IMAGE + "\",\"caption\":\"" + caption + "\"}"));
        assertThat(mapper.readTree((String) requests.get(2).get("body")))
                .isEqualTo(mapper.readTree("{\"creation_id\":\"" + container + "\"}"));

        assertThat(target.getString("status")).isEqualTo("published");
        assertThat(target.getString("provider_post_id")).isEqualTo(media);
        assertThat(target.getString("url")).isEqualTo(permalink).startsWith("https://www.instagram.com/p/");
        assertThat(target.getInt("attempts")).isEqualTo(1);
    }

    @Test
    void aReelIsPublishedOnceItsContainerHasFinishedWithoutCountingTheChecksAsAttempts() throws Exception {
        LiveWorkspace live = LiveWorkspace.create("Live Instagram Reel");
        String accountId = account(live);
        FakeRequests.clear("instagram");

        String caption = "Behind the lens " + UUID.randomUUID();
        String postId = live.post("{\"text\":\"" + caption + "\",\"account_ids\":[\"" + accountId + "\"],"
                + "\"media\":{\"type\":\"video\",\"url\":\"https://media.example.com/reel.mp4\"},"
                + "\"platform_options\":{\"instagram\":{\"share_to_feed\":true}}}");
        JsonPath target = PostsPipelineIT.awaitFinal(live.key(), postId).setRootPath("data.targets[0]");

        List<Map<String, Object>> requests = FakeRequests.of("instagram");
        String container =
                fakes().get("/_fakes/instagram/posts").then().extract().path("data[0].container_id");
        String media = fakes().get("/_fakes/instagram/posts").then().extract().path("data[0].id");
        // The container is made in one attempt; a later one finds it finished and publishes it.
        assertThat(requests)
                .extracting(FakeRequests::line)
                .containsExactly(
                        "POST /v24.0/" + USER_ID + "/media 200",
                        "GET /v24.0/" + container + " 200",
                        "POST /v24.0/" + USER_ID + "/media_publish 200",
                        "GET /v24.0/" + media + " 200");
        assertThat(mapper.readTree((String) requests.get(0).get("body")))
                .isEqualTo(mapper.readTree("{\"media_type\":\"REELS\","
                        + "\"video_url\":\"https://media.example.com/reel.mp4\",\"caption\":\"" + caption
                        + "\",\"share_to_feed\":true}"));
        assertThat(target.getString("status")).isEqualTo("published");
        assertThat(target.getString("provider_post_id")).isEqualTo(media);
        assertThat(target.getInt("attempts")).isEqualTo(1);
    }

    @Test
    void aContainerInstagramCannotProcessFailsTheTargetWithoutPublishingOrCharging() throws Exception {
        LiveWorkspace live = LiveWorkspace.create("Live Instagram processing error");
        String accountId = account(live);
        FakeRequests.clear("instagram");
        fakes().contentType(ContentType.JSON)
                .body("{\"kind\":\"processing_error\",\"method\":\"POST\",\"path\":\"/v[0-9.]+/" + USER_ID
                        + "/media\"}")
                .post("/_fakes/instagram/failures")
                .then()
                .statusCode(201);

        String postId = live.post("{\"text\":\"Never shown " + UUID.randomUUID() + "\",\"account_ids\":[\"" + accountId
                + "\"]," + "\"media\":{\"type\":\"image\",\"url\":\"" + IMAGE + "\"}}");
        JsonPath target = PostsPipelineIT.awaitFinal(live.key(), postId).setRootPath("data.targets[0]");

        assertThat(target.getString("status")).isEqualTo("failed");
        assertThat(target.getString("error.code")).isEqualTo("provider_error");
        assertThat(target.getBoolean("error.retryable")).isFalse();
        assertThat(target.getString("error.details.container_status")).isEqualTo("ERROR");
        assertThat(target.getInt("attempts")).isEqualTo(1);
        assertThat(FakeRequests.of("instagram"))
                .extracting(request -> request.get("method") + " " + request.get("path"))
                .doesNotContain("POST /v24.0/" + USER_ID + "/media_publish");
        assertThat(PostsPipelineIT.awaitPublications(live.key(), PostsPipelineIT.meter(0, 0)))
                .containsEntry("used", 0)
                .containsEntry("reserved", 0);
    }

    private static String account(LiveWorkspace live) {
        List<Map<String, Object>> accounts = HostedConnect.connect(live, "instagram");
        assertThat(accounts)
                .extracting(account -> account.get("platform") + " @" + account.get("username"))
                .containsExactly("instagram @heraldfake.studio");
        return (String) accounts.get(0).get("id");
    }
}
