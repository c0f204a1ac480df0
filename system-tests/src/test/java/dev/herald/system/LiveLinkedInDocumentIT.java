package dev.herald.system;

import static dev.herald.system.RunningSuite.fakes;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.system.HostedConnect.LiveWorkspace;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * A PDF posted as a LinkedIn document post, through the gateway in live mode against the LinkedIn fake: the dry run
 * probes the file and finds it a document LinkedIn takes, then the post uploads it through the Documents API and posts
 * its URN with the title option, as the fake's journal recorded it. HTTP only.
 */
class LiveLinkedInDocumentIT {
    private static final String MEMBER = "urn:li:person:hF4k3Mbr0q";
    private final ObjectMapper mapper = new ObjectMapper();

    @Test
    @ResourceLock(RunningSuite.LINKEDIN_FAKE)
    void aPdfIsUploadedThroughTheDocumentsApiAndPostedWithItsUrnAndTitle() throws Exception {
        LiveWorkspace live = LiveWorkspace.create("Live LinkedIn document");
        List<Map<String, Object>> accounts = HostedConnect.connect(live, "linkedin");
        String accountId = HostedConnect.accountNamed(accounts, MEMBER);
        long size = 250_007;
        String pdf = RunningSuite.get().providerFakesUrl() + "/_fakes/media/q3-report.pdf?bytes=" + size;
        String body = "{\"text\":\"Our Q3 report\",\"account_ids\":[\"" + accountId + "\"],\"media\":{\"type\":"
                + "\"document\",\"url\":\"" + pdf
                + "\"},\"platform_options\":{\"linkedin\":{\"title\":\"Q3 report\"}}}";
        JsonPath dryRun = RunningSuite.as(live.key())
                .contentType(ContentType.JSON)
                .body(body)
                .post("/posts/validate")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(dryRun.getBoolean("data.valid")).as(dryRun.prettify()).isTrue();
        FakeRequests.clear("linkedin");

        String postId = live.post(body);
        JsonPath target = PostsPipelineIT.awaitPost(
                        live.key(),
                        postId,
                        post -> PostsPipelineIT.FINAL.contains(post.getString("data.status")),
                        Duration.ofSeconds(90).toMillis())
                .setRootPath("data.targets[0]");

        assertThat(target.getString("status"))
                .as("target %s", target.prettify())
                .isEqualTo("published");
        List<Map<String, Object>> requests = FakeRequests.of("linkedin");
        assertThat(FakeRequests.lines(requests).stream()
                        .map(call -> call.replaceAll("/dms-uploads/[A-Za-z0-9-]+", "/dms-uploads/"))
                        .toList())
                .containsExactly("POST /rest/documents 200", "PUT /dms-uploads/ 201", "POST /rest/posts 201");
        assertThat(mapper.readTree((String) requests.get(0).get("body")))
                .isEqualTo(mapper.readTree("{\"initializeUploadRequest\":{\"owner\":\"" + MEMBER + "\"}}"));
        byte[] source = RestAssured.get(pdf).asByteArray();
        assertThat(new String(source, 0, 5, java.nio.charset.StandardCharsets.US_ASCII))
                .isEqualTo("%PDF-");
        assertThat(requests.get(1).get("body"))
                .isEqualTo("<" + size + " bytes, sha256 " + FakeRequests.sha256(source) + ">");
        JsonNode media = mapper.readTree((String) requests.get(2).get("body"))
                .path("content")
                .path("media");
        assertThat(media.path("id").asText()).startsWith("urn:li:document:");
        assertThat(media.path("title").asText()).isEqualTo("Q3 report");
        JsonPath posts = fakes().get("/_fakes/linkedin/posts")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(posts.getString("data[0].id")).isEqualTo(target.getString("provider_post_id"));
        assertThat(posts.getString("data[0].content.media.id"))
                .isEqualTo(media.path("id").asText());
        assertThat(LiveYouTubeIT.awaitMediaBytes(live.key(), size)).isEqualTo(size);
    }
}
