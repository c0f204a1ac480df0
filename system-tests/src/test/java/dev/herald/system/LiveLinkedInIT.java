package dev.herald.system;

import static dev.herald.system.RunningSuite.as;
import static dev.herald.system.RunningSuite.fakes;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Live mode end to end against the provider fakes: a LinkedIn member connected through the hosted connect page (OAuth
 * against the fake LinkedIn, followed as a browser would, cookie and all), then a live text post, checked by the
 * exact request LinkedIn received and the target's final id and URL. HTTP only: the gateway and the fakes' control API.
 */
@ResourceLock(RunningSuite.LINKEDIN_FAKE)
class LiveLinkedInIT {
    private static final String MEMBER = "urn:li:person:hF4k3Mbr0q";
    private final ObjectMapper mapper = new ObjectMapper();

    @Test
    void aMemberConnectedThroughTheHostedPagePublishesATextPostWithTheExactRequestLinkedInDocuments() throws Exception {
        String workspace = RunningSuite.newWorkspace("Live LinkedIn");
        String key = RunningSuite.newKey(workspace, "live");
        String profile = as(key).contentType(ContentType.JSON)
                .body("{\"name\":\"Live LinkedIn\"}")
                .post("/profiles")
                .then()
                .statusCode(201)
                .extract()
                .path("data.id");

        String accountId = connectLinkedInMember(key, profile);
        FakeRequests.clear("linkedin");

        String text = "Launch day (finally) #herald @team";
        String postId = as(key).contentType(ContentType.JSON)
                .header("Idempotency-Key", UUID.randomUUID().toString())
                .body("{\"text\":\"" + text + "\",\"account_ids\":[\"" + accountId + "\"],"
                        + "\"platform_options\":{\"linkedin\":{\"visibility\":\"CONNECTIONS\"}}}")
                .post("/posts")
                .then()
                .statusCode(202)
                .extract()
                .path("data.id");
        JsonPath target = awaitTarget(key, postId);

        List<Map<String, Object>> requests = FakeRequests.of("linkedin");
        assertThat(requests)
                .extracting(request -> request.get("method") + " " + request.get("path"))
                .containsExactly("POST /rest/posts");
        Map<String, Object> request = requests.get(0);
        @SuppressWarnings("unchecked")
        Map<String, List<String>> headers = (Map<String, List<String>>) request.get("headers");
        assertThat(headers.get("linkedin-version")).containsExactly("202601");
        assertThat(headers.get("x-restli-protocol-version")).containsExactly("2.0.0");
        assertThat(headers.get("content-type")).singleElement().asString().startsWith("application/json");
        assertThat(headers.get("authorization")).singleElement().asString().matches("Bearer sha256:[0-9a-f]{16}");
        JsonNode body = mapper.readTree((String) request.get("body"));
        assertThat(body)
                .isEqualTo(mapper.readTree("{\"author\":\"" + MEMBER + "\","
                        // LinkedIn's little text format: parentheses, # and @ are escaped to appear as typed.
                        + "\"commentary\":\"Launch day \\\\(finally\\\\) \\\\#herald \\\\@team\","
                        + "\"visibility\":\"CONNECTIONS\","
                        + "\"distribution\":{\"feedDistribution\":\"MAIN_FEED\",\"targetEntities\":[],\"thirdPartyDistributionChannels\":[]},"
                        + "\"lifecycleState\":\"PUBLISHED\",\"isReshareDisabledByAuthor\":false}"));
        assertThat(request.get("status")).isEqualTo(201);

        String urn = fakes().get("/_fakes/linkedin/posts")
                .then()
                .statusCode(200)
                .extract()
                .path("data[0].id");
        assertThat(urn).matches("urn:li:share:[0-9]{19}");
        assertThat(target.getString("status")).isEqualTo("published");
        assertThat(target.getString("provider_post_id")).isEqualTo(urn);
        assertThat(target.getString("url")).isEqualTo("https://www.linkedin.com/feed/update/" + urn + "/");
        assertThat(target.getInt("attempts")).isEqualTo(1);
    }

    @Test
    void aRateLimitedPostWaitsForRetryAfterAndIsPublishedOnce() throws Exception {
        String workspace = RunningSuite.newWorkspace("Live LinkedIn 429");
        String key = RunningSuite.newKey(workspace, "live");
        String profile = as(key).contentType(ContentType.JSON)
                .body("{\"name\":\"Live LinkedIn 429\"}")
                .post("/profiles")
                .then()
                .statusCode(201)
                .extract()
                .path("data.id");
        String accountId = connectLinkedInMember(key, profile);
        FakeRequests.clear("linkedin");
        fakes().contentType(ContentType.JSON)
                .body(
                        "{\"kind\":\"rate_limit\",\"method\":\"POST\",\"path\":\"/rest/posts\",\"retry_after_seconds\":2}")
                .post("/_fakes/linkedin/failures")
                .then()
                .statusCode(201);

        String text = "Throttled, then fine " + UUID.randomUUID();
        String postId = as(key).contentType(ContentType.JSON)
                .header("Idempotency-Key", UUID.randomUUID().toString())
                .body("{\"text\":\"" + text + "\",\"account_ids\":[\"" + accountId + "\"]}")
                .post("/posts")
                .then()
                .statusCode(202)
                .extract()
                .path("data.id");
        JsonPath target = awaitTarget(key, postId);

        assertThat(target.getString("status")).isEqualTo("published");
        assertThat(target.getInt("attempts")).isEqualTo(2);
        List<Map<String, Object>> calls = FakeRequests.of("linkedin");
        assertThat(calls)
                .extracting(call -> call.get("path") + " " + call.get("status") + " " + call.get("failure"))
                .containsExactly("/rest/posts 429 rate_limit", "/rest/posts 201 null");
        Instant limited = Instant.parse((String) calls.get(0).get("received_at"));
        Instant retried = Instant.parse((String) calls.get(1).get("received_at"));
        assertThat(Duration.between(limited, retried)).isGreaterThanOrEqualTo(Duration.ofSeconds(2));
        List<String> published = fakes().get("/_fakes/linkedin/posts")
                .then()
                .extract()
                .jsonPath()
                .getList("data.commentary");
        // The text has no character LinkedIn's little text format escapes, so it is the commentary as sent.
        assertThat(published).containsOnlyOnce(text);
    }

    @Test
    void anImagePostStreamsTheFileToLinkedInsUploadUrlAndPostsItsUrnWithTheAltText() throws Exception {
        HostedConnect.LiveWorkspace live = HostedConnect.LiveWorkspace.create("Live LinkedIn image");
        String key = live.key();
        String accountId = connectLinkedInMember(key, live.profile());
        FakeRequests.clear("linkedin");
        int size = 1_234_567;
        String media = RunningSuite.get().providerFakesUrl() + "/_fakes/media/new-office.png?bytes=" + size;
        byte[] source = io.restassured.RestAssured.get(media).asByteArray();

        String postId = as(key).contentType(ContentType.JSON)
                .header("Idempotency-Key", UUID.randomUUID().toString())
                .body("{\"text\":\"Our new office\",\"account_ids\":[\"" + accountId + "\"],"
                        + "\"media\":{\"type\":\"image\",\"url\":\"" + media + "\"},"
                        + "\"platform_options\":{\"linkedin\":{\"alt_text\":\"The team on the roof\"}}}")
                .post("/posts")
                .then()
                .statusCode(202)
                .extract()
                .path("data.id");
        JsonPath target = awaitTarget(key, postId);

        List<Map<String, Object>> requests = FakeRequests.of("linkedin");
        assertThat(FakeRequests.lines(requests))
                .extracting(line -> line.replaceAll("/dms-uploads/[A-Za-z0-9]{24} ", "/dms-uploads/<id> "))
                .containsExactly("POST /rest/images 200", "PUT /dms-uploads/<id> 201", "POST /rest/posts 201");
        assertThat(mapper.readTree((String) requests.get(0).get("body")))
                .isEqualTo(mapper.readTree("{\"initializeUploadRequest\":{\"owner\":\"" + MEMBER + "\"}}"));
        // Every byte of the source, in one request, unchanged.
        assertThat(requests.get(1).get("body")).isEqualTo(FakeRequests.upload(source));
        JsonNode post = mapper.readTree((String) requests.get(2).get("body"));
        String image = post.path("content").path("media").path("id").asText();
        assertThat(image).matches("urn:li:image:[A-Za-z0-9]{19}");
        assertThat(post.path("content").path("media").path("altText").asText()).isEqualTo("The team on the roof");

        assertThat(target.getString("status")).isEqualTo("published");
        assertThat(target.getInt("attempts")).isEqualTo(1);
        assertThat(target.getString("provider_post_id"))
                .isEqualTo(fakes().get("/_fakes/linkedin/posts")
                        .then()
                        .statusCode(200)
                        .extract()
                        .path("data[0].id"));
        assertThat(LiveYouTubeIT.awaitMediaBytes(key, size)).isEqualTo(size);
    }

    @Test
    void aVideoIsUploadedInLinkedInsPartsFinalizedWithTheirETagsAndPostedOnceAvailable() throws Exception {
        HostedConnect.LiveWorkspace live = HostedConnect.LiveWorkspace.create("Live LinkedIn video");
        String accountId = connectLinkedInMember(live.key(), live.profile());
        FakeRequests.clear("linkedin");
        int part = 4 * 1024 * 1024;
        int size = 2 * part + 12_345;
        String media = RunningSuite.get().providerFakesUrl() + "/_fakes/media/town-hall.mp4?bytes=" + size;
        byte[] source = io.restassured.RestAssured.get(media).asByteArray();

        String postId = as(live.key())
                .contentType(ContentType.JSON)
                .header("Idempotency-Key", UUID.randomUUID().toString())
                .body("{\"text\":\"Town hall highlights\",\"account_ids\":[\"" + accountId + "\"],"
                        + "\"media\":{\"type\":\"video\",\"url\":\"" + media + "\"}}")
                .post("/posts")
                .then()
                .statusCode(202)
                .extract()
                .path("data.id");
        JsonPath target = awaitTarget(live.key(), postId);

        List<Map<String, Object>> requests = FakeRequests.of("linkedin");
        List<String> lines = FakeRequests.lines(requests).stream()
                .map(line -> line.replaceAll("/dms-uploads/[A-Za-z0-9]{24} ", "/dms-uploads/<id> ")
                        .replaceAll("/rest/videos/urn%3Ali%3Avideo%3A[A-Za-z0-9_-]+ ", "/rest/videos/<urn> "))
                .toList();
        assertThat(lines.subList(0, 5))
                .containsExactly(
                        "POST /rest/videos 200",
                        "PUT /dms-uploads/<id> 200",
                        "PUT /dms-uploads/<id> 200",
                        "PUT /dms-uploads/<id> 200",
                        "POST /rest/videos 200");
        // Then the video's status until it is AVAILABLE, and the post made once with it.
        assertThat(lines.subList(5, lines.size())).last().isEqualTo("POST /rest/posts 201");
        assertThat(lines.subList(5, lines.size() - 1)).isNotEmpty().containsOnly("GET /rest/videos/<urn> 200");
        JsonNode init = mapper.readTree((String) requests.get(0).get("body"));
        assertThat(init)
                .isEqualTo(mapper.readTree("{\"initializeUploadRequest\":{\"owner\":\"" + MEMBER
                        + "\",\"fileSizeBytes\":" + size + ",\"uploadCaptions\":false,\"uploadThumbnail\":false}}"));
        // Each part carries exactly its range of the source, in order.
        assertThat(requests.subList(1, 4))
                .extracting(request -> request.get("body"))
                .containsExactly(
                        FakeRequests.upload(java.util.Arrays.copyOfRange(source, 0, part)),
                        FakeRequests.upload(java.util.Arrays.copyOfRange(source, part, 2 * part)),
                        FakeRequests.upload(java.util.Arrays.copyOfRange(source, 2 * part, size)));
        JsonNode finalize =
                mapper.readTree((String) requests.get(4).get("body")).path("finalizeUploadRequest");
        assertThat(finalize.path("uploadedPartIds")).hasSize(3);
        String video = finalize.path("video").asText();
        JsonNode post =
                mapper.readTree((String) requests.get(requests.size() - 1).get("body"));
        assertThat(post.path("content").path("media").path("id").asText()).isEqualTo(video);

        assertThat(target.getString("status")).isEqualTo("published");
        assertThat(target.getInt("attempts")).isEqualTo(1);
        assertThat(target.getString("provider_post_id"))
                .isEqualTo(fakes().get("/_fakes/linkedin/posts")
                        .then()
                        .statusCode(200)
                        .extract()
                        .path("data[0].id"));
        assertThat(LiveYouTubeIT.awaitMediaBytes(live.key(), size)).isEqualTo(size);
    }

    /** The hosted page as a browser walks it: the member and the organization they administer become accounts. */
    private static String connectLinkedInMember(String key, String profile) {
        List<Map<String, Object>> accounts =
                HostedConnect.connect(new HostedConnect.LiveWorkspace(key, profile), "linkedin");
        assertThat(accounts)
                .extracting(account -> account.get("username"))
                .containsExactlyInAnyOrder(MEMBER, "herald-fake-industries");
        return HostedConnect.accountNamed(accounts, MEMBER);
    }

    private static JsonPath awaitTarget(String key, String postId) throws InterruptedException {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
        while (true) {
            JsonPath post = as(key).get("/posts/" + postId)
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath();
            String status = post.getString("data.targets[0].status");
            if ("published".equals(status)
                    || "failed".equals(status)
                    || Instant.now().isAfter(deadline)) {
                return new JsonPath(post.prettify()).setRootPath("data.targets[0]");
            }
            Thread.sleep(500);
        }
    }
}
