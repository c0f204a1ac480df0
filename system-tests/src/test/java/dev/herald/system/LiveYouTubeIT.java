package dev.herald.system;

import static dev.herald.system.RunningSuite.as;
import static dev.herald.system.RunningSuite.fakes;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.system.HostedConnect.LiveWorkspace;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Live YouTube end to end against the provider fakes: a channel connected through the hosted page (Google OAuth with
 * PKCE against the fake), then a video whose bytes Herald streams from the fakes' sample media host into YouTube's
 * resumable upload, checked request by request and byte for byte (SHA-256), with the media bytes it charged. HTTP only.
 */
@ResourceLock(RunningSuite.YOUTUBE_FAKE)
class LiveYouTubeIT {
    private static final String CHANNEL_ID = "UCq3HeraldFakeChannel0001";
    /** A little over 3 MiB, so the transfer takes many reads and writes. */
    private static final int SIZE = 3 * 1024 * 1024 + 17;

    private final ObjectMapper mapper = new ObjectMapper();

    @Test
    void aChannelConnectedThroughTheHostedPageUploadsAVideoStreamedFromItsSourceByteForByte() throws Exception {
        LiveWorkspace live = LiveWorkspace.create("Live YouTube");
        List<Map<String, Object>> accounts = HostedConnect.connect(live, "youtube");
        assertThat(accounts)
                .extracting(account -> account.get("platform") + " " + account.get("name"))
                .containsExactly("youtube Herald Fake Garden");
        String accountId = (String) accounts.get(0).get("id");
        FakeRequests.clear("youtube");

        String media = RunningSuite.get().providerFakesUrl() + "/_fakes/media/garden-tour.mp4?bytes=" + SIZE;
        byte[] source = RestAssured.get(media).asByteArray();
        String postId = live.post("{\"text\":\"Garden tour, spring\\nFirst light over the beds\","
                + "\"account_ids\":[\"" + accountId + "\"],\"media\":{\"type\":\"video\",\"url\":\"" + media + "\"},"
                + "\"platform_options\":{\"youtube\":{\"privacy_status\":\"unlisted\",\"made_for_kids\":false}}}");
        JsonPath target = PostsPipelineIT.awaitPost(
                        live.key(),
                        postId,
                        post -> PostsPipelineIT.FINAL.contains(post.getString("data.status")),
                        Duration.ofSeconds(60).toMillis())
                .setRootPath("data.targets[0]");

        List<Map<String, Object>> requests = FakeRequests.of("youtube");
        assertThat(FakeRequests.lines(requests))
                .containsExactly("POST /upload/youtube/v3/videos 200", "PUT /upload/youtube/v3/videos 200");
        Map<String, Object> start = requests.get(0);
        assertThat(start.get("query"))
                .isEqualTo(Map.of("uploadType", List.of("resumable"), "part", List.of("snippet,status")));
        assertThat(FakeRequests.headers(start).get("x-upload-content-length")).containsExactly(Integer.toString(SIZE));
        assertThat(FakeRequests.headers(start).get("x-upload-content-type")).containsExactly("video/mp4");
        assertThat(FakeRequests.headers(start).get("authorization"))
                .singleElement()
                .asString()
                .matches("Bearer sha256:[0-9a-f]{16}");
        assertThat(mapper.readTree((String) start.get("body")))
                .isEqualTo(mapper.readTree("{\"snippet\":{\"title\":\"Garden tour, spring\","
                        + "\"description\":\"Garden tour, spring\\nFirst light over the beds\"},"
                        + "\"status\":{\"privacyStatus\":\"unlisted\",\"selfDeclaredMadeForKids\":false}}"));
        Map<String, Object> upload = requests.get(1);
        assertThat(FakeRequests.headers(upload).get("content-type")).containsExactly("video/mp4");
        // Every byte of the source, in one request, unchanged.
        assertThat(upload.get("body")).isEqualTo(FakeRequests.upload(source));

        Map<String, Object> video = fakes().get("/_fakes/youtube/posts")
                .then()
                .statusCode(200)
                .extract()
                .path("data[0]");
        assertThat(video)
                .containsEntry("bytes", SIZE)
                .containsEntry("parts", List.of(Map.of("bytes", SIZE, "sha256", FakeRequests.sha256(source))));
        String videoId = (String) video.get("id");
        assertThat(target.getString("status")).isEqualTo("published");
        assertThat(target.getString("provider_post_id")).isEqualTo(videoId);
        assertThat(target.getString("url")).isEqualTo("https://www.youtube.com/watch?v=" + videoId);
        assertThat(target.getInt("attempts")).isEqualTo(1);
        // The destination is charged its bytes once, the publication once.
        assertThat(awaitMediaBytes(live.key(), SIZE)).isEqualTo(SIZE);
        assertThat(PostsPipelineIT.awaitPublications(live.key(), PostsPipelineIT.meter(1, 0)))
                .containsEntry("used", 1)
                .containsEntry("reserved", 0);
        assertThat(video.get("snippet")).isInstanceOf(Map.class);
        assertThat(((Map<?, ?>) video.get("snippet")).get("channelId")).isEqualTo(CHANNEL_ID);
    }

    /** The workspace's {@code media_bytes} used, once it is {@code expected} or after 20 s. */
    static long awaitMediaBytes(String key, long expected) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 20_000;
        long used = as(key).get("/usage")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getLong("data.media_bytes.used");
        while (used != expected && System.currentTimeMillis() < deadline) {
            Thread.sleep(300);
            used = as(key).get("/usage")
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath()
                    .getLong("data.media_bytes.used");
        }
        return used;
    }
}
