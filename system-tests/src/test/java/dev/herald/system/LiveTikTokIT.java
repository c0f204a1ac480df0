package dev.herald.system;

import static dev.herald.system.RunningSuite.as;
import static dev.herald.system.RunningSuite.fakes;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.system.HostedConnect.LiveWorkspace;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Live TikTok end to end against the provider fakes: a creator connected through the hosted page (Login Kit against
 * the fake), then a Direct Post whose video Herald streams from the fakes' sample media host in TikTok's chunks
 * (RunningSuite sets 5 MiB chunks), checked request by request and chunk by chunk (SHA-256), and published once TikTok
 * reports it. HTTP only.
 */
@ResourceLock(RunningSuite.TIKTOK_FAKE)
class LiveTikTokIT {
    private static final int CHUNK = 5 * 1024 * 1024;
    /** Two chunks: 5 MiB, then the rest (TikTok's last chunk takes the remainder, up to 128 MiB). */
    private static final int SIZE = 12 * 1024 * 1024 + 3;

    private final ObjectMapper mapper = new ObjectMapper();

    @Test
    void aCreatorConnectedThroughTheHostedPagePostsAVideoUploadedInTikToksChunks() throws Exception {
        LiveWorkspace live = LiveWorkspace.create("Live TikTok");
        List<Map<String, Object>> accounts = HostedConnect.connect(live, "tiktok");
        assertThat(accounts)
                .extracting(account -> account.get("platform") + " @" + account.get("username"))
                .containsExactly("tiktok @heraldfake.dance");
        String accountId = (String) accounts.get(0).get("id");
        FakeRequests.clear("tiktok");

        String media = RunningSuite.get().providerFakesUrl() + "/_fakes/media/routine.mp4?bytes=" + SIZE;
        byte[] source = RestAssured.get(media).asByteArray();
        String postId = live.post("{\"text\":\"Spring routine #dance\",\"account_ids\":[\"" + accountId + "\"],"
                + "\"media\":{\"type\":\"video\",\"url\":\"" + media + "\"},\"platform_options\":{\"tiktok\":"
                + "{\"privacy_level\":\"PUBLIC_TO_EVERYONE\",\"disable_comment\":false,\"disable_duet\":true}}}");
        JsonPath target = PostsPipelineIT.awaitPost(
                        live.key(),
                        postId,
                        post -> PostsPipelineIT.FINAL.contains(post.getString("data.status")),
                        Duration.ofSeconds(90).toMillis())
                .setRootPath("data.targets[0]");

        List<Map<String, Object>> requests = FakeRequests.of("tiktok");
        List<String> calls = FakeRequests.lines(requests);
        // The creator is asked first, the post initialised once, its two chunks sent in order, then its status fetched.
        assertThat(calls.get(0)).isEqualTo("POST /v2/post/publish/creator_info/query/ 200");
        assertThat(calls)
                .filteredOn(call -> call.startsWith("POST /v2/post/publish/video/init/"))
                .containsExactly("POST /v2/post/publish/video/init/ 200");
        assertThat(calls)
                .filteredOn(call -> call.startsWith("PUT "))
                .containsExactly("PUT /upload/ 206", "PUT /upload/ 201");
        assertThat(calls.subList(calls.indexOf("PUT /upload/ 201") + 1, calls.size()))
                .isNotEmpty()
                .allMatch(call -> call.startsWith("POST /v2/post/publish/status/fetch/ 200")
                        || call.startsWith("POST /v2/post/publish/creator_info/query/ 200"));

        Map<String, Object> init = requests.get(calls.indexOf("POST /v2/post/publish/video/init/ 200"));
        assertThat(mapper.readTree((String) init.get("body")))
                .isEqualTo(mapper.readTree("{\"post_info\":{"
                        + "\"title\":\"Spring routine #dance\",\"privacy_level\":\"PUBLIC_TO_EVERYONE\",\"disable_comment\":false,"
                        + "\"disable_duet\":true,\"disable_stitch\":true,\"brand_content_toggle\":false,\"brand_organic_toggle\":false},"
                        + "\"source_info\":{\"source\":\"FILE_UPLOAD\",\"video_size\":" + SIZE + ",\"chunk_size\":"
                        + CHUNK
                        + ",\"total_chunk_count\":2}}"));
        List<Map<String, Object>> chunks = requests.stream()
                .filter(request -> "PUT".equals(request.get("method")))
                .toList();
        assertThat(chunks)
                .extracting(chunk ->
                        FakeRequests.headers(chunk).get("content-range").get(0))
                .containsExactly(
                        "bytes 0-" + (CHUNK - 1) + "/" + SIZE, "bytes " + CHUNK + "-" + (SIZE - 1) + "/" + SIZE);
        assertThat(chunks)
                .extracting(chunk -> chunk.get("body"))
                .containsExactly(
                        FakeRequests.upload(Arrays.copyOfRange(source, 0, CHUNK)),
                        FakeRequests.upload(Arrays.copyOfRange(source, CHUNK, SIZE)));
        assertThat(chunks)
                .extracting(
                        chunk -> FakeRequests.headers(chunk).get("content-type").get(0))
                .containsOnly("video/mp4");

        String tiktokId = fakes().get("/_fakes/tiktok/posts")
                .then()
                .statusCode(200)
                .extract()
                .path("data[0].id");
        assertThat(target.getString("status")).isEqualTo("published");
        assertThat(target.getString("provider_post_id")).isEqualTo(tiktokId);
        assertThat(target.getString("url")).isEqualTo("https://www.tiktok.com/@heraldfake.dance/video/" + tiktokId);
        assertThat(as(live.key())
                        .get("/usage")
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getLong("data.media_bytes.used"))
                .isEqualTo(SIZE);
    }
}
