package dev.herald.system;

import static dev.herald.system.RunningSuite.fakes;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.system.HostedConnect.LiveWorkspace;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Live Pinterest end to end against the provider fakes: an account connected through the hosted page (OAuth against
 * the fake), an image pin checked by the exact request, an expired access token refreshed once, and a Pinterest that
 * answers 500 to every attempt: retried, settled by looking at the board, failed, and charged nothing. HTTP only.
 */
@ResourceLock(RunningSuite.PINTEREST_FAKE)
class LivePinterestIT {
    private static final String BOARD_ID = "1125899906842625101";
    private static final String IMAGE = "https://media.example.com/kitchen.jpg";
    private final ObjectMapper mapper = new ObjectMapper();

    @Test
    void anAccountConnectedThroughTheHostedPagePinsAnImageWithTheExactRequest() throws Exception {
        LiveWorkspace live = LiveWorkspace.create("Live Pinterest");
        String accountId = account(live);
        FakeRequests.clear("pinterest");

        String description = "Weeknight noodles " + UUID.randomUUID();
        JsonPath target = pin(live, accountId, description);

        List<Map<String, Object>> requests = FakeRequests.of("pinterest");
        assertThat(requests).extracting(FakeRequests::line).containsExactly("POST /v5/pins 201");
        @SuppressWarnings("unchecked")
        Map<String, List<String>> headers =
                (Map<String, List<String>>) requests.get(0).get("headers");
        assertThat(headers.get("authorization")).singleElement().asString().matches("Bearer sha256:[0-9a-f]{16}");
        assertThat(mapper.readTree((String) requests.get(0).get("body")))
                .isEqualTo(mapper.readTree("{\"board_id\":\"" + BOARD_ID + "\","
                        + "\"title\":\"Noodles\",\"description\":\"" + description + "\","
                        + "\"media_source\":{\"source_type\":\"image_url\",\"url\":\"" + IMAGE + "\"}}"));

        String pinId = fakes().get("/_fakes/pinterest/posts")
                .then()
                .statusCode(200)
                .extract()
                .path("data[0].id");
        assertThat(target.getString("status")).isEqualTo("published");
        assertThat(target.getString("provider_post_id")).isEqualTo(pinId);
        assertThat(target.getString("url")).isEqualTo("https://www.pinterest.com/pin/" + pinId + "/");
        assertThat(target.getInt("attempts")).isEqualTo(1);
    }

    @Test
    void anExpiredAccessTokenIsRefreshedOnceAndThePinPublishedInTheSameAttempt() throws Exception {
        LiveWorkspace live = LiveWorkspace.create("Live Pinterest expired token");
        String accountId = account(live);
        FakeRequests.clear("pinterest");
        fakes().post("/_fakes/pinterest/tokens/expire").then().statusCode(200);

        JsonPath target = pin(live, accountId, "After a refresh " + UUID.randomUUID());

        // Pinterest refused the expired token, accounts-service refreshed it once, and the pin went through with the
        // new one.
        List<Map<String, Object>> requests = FakeRequests.of("pinterest");
        assertThat(requests)
                .extracting(FakeRequests::line)
                .as("Pinterest's requests: %s", requests)
                .containsExactly("POST /v5/pins 401", "POST /v5/oauth/token 200", "POST /v5/pins 201");
        assertThat(target.getString("status")).isEqualTo("published");
        assertThat(target.getInt("attempts")).isEqualTo(1);
        assertThat(requests.get(1).get("body").toString()).contains("grant_type=refresh_token");
        @SuppressWarnings("unchecked")
        String refused = ((Map<String, List<String>>) requests.get(0).get("headers"))
                .get("authorization")
                .get(0);
        @SuppressWarnings("unchecked")
        String fresh = ((Map<String, List<String>>) requests.get(2).get("headers"))
                .get("authorization")
                .get(0);
        assertThat(fresh).isNotEqualTo(refused);
    }

    @Test
    void aPinterestThatFailsEveryAttemptIsSettledByLookingAndReleasesThePublication() throws Exception {
        LiveWorkspace live = LiveWorkspace.create("Live Pinterest 500");
        String accountId = account(live);
        FakeRequests.clear("pinterest");
        fakes().contentType(ContentType.JSON)
                .body("{\"kind\":\"server_error\",\"method\":\"POST\",\"path\":\"/v5/pins\",\"times\":5}")
                .post("/_fakes/pinterest/failures")
                .then()
                .statusCode(201);

        String description = "Never pinned " + UUID.randomUUID();
        String postId = live.post(body(accountId, description));
        // Five attempts with backoff (about 15 s), then the reconciler's look at the board.
        JsonPath target = PostsPipelineIT.awaitPost(
                        live.key(),
                        postId,
                        post -> PostsPipelineIT.FINAL.contains(post.getString("data.status")),
                        Duration.ofSeconds(90).toMillis())
                .setRootPath("data.targets[0]");

        assertThat(target.getString("status")).isEqualTo("failed");
        assertThat(target.getInt("attempts")).isEqualTo(5);
        assertThat(target.getString("error.code")).isEqualTo("provider_error");
        assertThat(target.getBoolean("error.details.reconciled")).isTrue();
        List<String> calls = FakeRequests.lines(FakeRequests.of("pinterest"));
        // Every attempt after an unknown outcome looked at the board before pinning again; nothing was pinned.
        assertThat(calls)
                .filteredOn(call -> call.startsWith("POST /v5/pins"))
                .containsOnly("POST /v5/pins 500")
                .hasSize(5);
        assertThat(calls)
                .filteredOn(call -> call.startsWith("GET /v5/boards/" + BOARD_ID + "/pins"))
                .hasSizeGreaterThanOrEqualTo(5);
        assertThat(fakes().get("/_fakes/pinterest/posts")
                        .then()
                        .extract()
                        .jsonPath()
                        .<String>getList("data.description"))
                .doesNotContain(description);
        assertThat(PostsPipelineIT.awaitPublications(live.key(), PostsPipelineIT.meter(0, 0)))
                .containsEntry("used", 0)
                .containsEntry("reserved", 0);
    }

    @Test
    void aVideoPinIsRegisteredUploadedAsAFormAndPinnedOncePinterestHasProcessedIt() throws Exception {
        LiveWorkspace live = LiveWorkspace.create("Live Pinterest video");
        String accountId = account(live);
        FakeRequests.clear("pinterest");
        int size = 2 * 1024 * 1024 + 5;
        String media = RunningSuite.get().providerFakesUrl() + "/_fakes/media/noodles.mp4?bytes=" + size;

        String postId = live.post("{\"text\":\"Noodles in a minute\",\"account_ids\":[\"" + accountId + "\"],"
                + "\"media\":{\"type\":\"video\",\"url\":\"" + media + "\"},"
                + "\"platform_options\":{\"pinterest\":{\"board_id\":\"" + BOARD_ID + "\"}}}");
        // The first status check comes herald.publishers.pinterest.video-check-interval (20 s) after the upload.
        JsonPath target = PostsPipelineIT.awaitPost(
                        live.key(),
                        postId,
                        post -> PostsPipelineIT.FINAL.contains(post.getString("data.status")),
                        Duration.ofSeconds(90).toMillis())
                .setRootPath("data.targets[0]");

        List<Map<String, Object>> requests = FakeRequests.of("pinterest");
        String mediaId = fakes().get("/_fakes/pinterest/posts")
                .then()
                .statusCode(200)
                .extract()
                .path("data[0].media.media_id");
        assertThat(FakeRequests.lines(requests))
                .containsExactly(
                        "POST /v5/media 201",
                        "POST /media-uploads/" + mediaId + " 204",
                        "GET /v5/media/" + mediaId + " 200",
                        "POST /v5/pins 201");
        // The file and the form around it: more than the file's bytes, in one request.
        String upload = (String) requests.get(1).get("body");
        long formBytes = Long.parseLong(upload.substring(1, upload.indexOf(' ')));
        assertThat(formBytes).isGreaterThan(size).isLessThan(size + 4096);
        assertThat(mapper.readTree((String) requests.get(3).get("body")))
                .isEqualTo(mapper.readTree("{\"board_id\":\"" + BOARD_ID + "\","
                        + "\"description\":\"Noodles in a minute\","
                        + "\"media_source\":{\"source_type\":\"video_id\",\"cover_image_key_frame_time\":1,\"media_id\":\""
                        + mediaId + "\"}}"));
        assertThat(target.getString("status")).isEqualTo("published");
        assertThat(target.getInt("attempts")).isEqualTo(1);
        assertThat(LiveYouTubeIT.awaitMediaBytes(live.key(), size)).isEqualTo(size);
    }

    private static JsonPath pin(LiveWorkspace live, String accountId, String description) throws InterruptedException {
        String postId = live.post(body(accountId, description));
        return PostsPipelineIT.awaitFinal(live.key(), postId).setRootPath("data.targets[0]");
    }

    private static String body(String accountId, String description) {
        return "{\"text\":\"" + description + "\",\"account_ids\":[\"" + accountId + "\"],"
                + "\"media\":{\"type\":\"image\",\"url\":\"" + IMAGE + "\"},"
                + "\"platform_options\":{\"pinterest\":{\"board_id\":\"" + BOARD_ID + "\",\"title\":\"Noodles\"}}}";
    }

    private static String account(LiveWorkspace live) {
        List<Map<String, Object>> accounts = HostedConnect.connect(live, "pinterest");
        assertThat(accounts)
                .extracting(account -> account.get("platform") + " @" + account.get("username"))
                .containsExactly("pinterest @heraldfakekitchen");
        return (String) accounts.get(0).get("id");
    }
}
