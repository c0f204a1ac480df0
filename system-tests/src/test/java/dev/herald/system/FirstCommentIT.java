package dev.herald.system;

import static dev.herald.system.RunningSuite.as;
import static dev.herald.system.RunningSuite.fakes;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.system.HostedConnect.LiveWorkspace;
import dev.herald.system.WebhooksIT.Receiver;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * First comments end to end, live against the provider fakes: a Facebook Page, an Instagram professional account, a
 * YouTube channel and a LinkedIn organization connected through the hosted page. A post with {@code first_comment} to
 * each publishes, and Herald then posts the comment on the published item as the account with the platform's
 * documented call (asserted from the fake's request log: Facebook and Instagram {@code POST /{id}/comments}, YouTube
 * {@code POST /youtube/v3/commentThreads}, LinkedIn {@code POST /rest/socialActions/{urn}/comments}); the target shows
 * {@code first_comment: {status: published, comment_id}}, the comment is on the platform (Herald's live comment read
 * finds it, from the account), and the {@code post.published} webhook carries it. A first comment the fake refuses
 * leaves the post {@code published} and the comment {@code failed}, with what the platform said, in the webhook too.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ResourceLock(RunningSuite.FACEBOOK_FAKE)
@ResourceLock(RunningSuite.INSTAGRAM_FAKE)
@ResourceLock(RunningSuite.LINKEDIN_FAKE)
@ResourceLock(RunningSuite.YOUTUBE_FAKE)
class FirstCommentIT {
    private static final String ORGANIZATION_USERNAME = "herald-fake-industries";

    private LiveWorkspace live;
    private final Map<String, String> accounts = new LinkedHashMap<>();
    private Receiver receiver;
    private String secret;

    @BeforeAll
    void connectFourAccountsAndListen() throws Exception {
        live = LiveWorkspace.create("First comments");
        for (String platform : List.of("facebook", "instagram", "youtube", "linkedin")) {
            HostedConnect.connect(live, platform);
        }
        List<Map<String, Object>> connected = as(live.key())
                .get("/accounts")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("data");
        for (Map<String, Object> account : connected) {
            String platform = (String) account.get("platform");
            // LinkedIn adds the member and the organization they administer; the organization's post is commented on.
            if (!"linkedin".equals(platform) || ORGANIZATION_USERNAME.equals(account.get("username"))) {
                accounts.put(platform, (String) account.get("id"));
            }
        }
        receiver = new Receiver(request -> 204);
        secret = as(live.key())
                .contentType(ContentType.JSON)
                .body("{\"url\":\"" + receiver.url() + "\",\"events\":[\"post.published\",\"post.partially_failed\"]}")
                .post("/webhooks")
                .then()
                .statusCode(201)
                .extract()
                .path("data.secret");
    }

    @AfterAll
    void closeReceiver() {
        if (receiver != null) {
            receiver.close();
        }
    }

    @Test
    void aFirstCommentAppearsOnThePublishedPostAtEachPlatform() throws Exception {
        Instant started = Instant.now();
        String video = RunningSuite.get().providerFakesUrl() + "/_fakes/media/first-comment.mp4?bytes=" + (64 * 1024);
        Map<String, String> media = Map.of(
                "facebook", "",
                "instagram", ",\"media\":{\"type\":\"image\",\"url\":\"https://media.example.com/first-comment.jpg\"}",
                "youtube",
                        ",\"media\":{\"type\":\"video\",\"url\":\"" + video + "\"},\"platform_options\":{\"youtube\":"
                                + "{\"privacy_status\":\"public\",\"made_for_kids\":false}}",
                "linkedin", "");
        Map<String, String> comments = new LinkedHashMap<>();
        Map<String, String> posts = new LinkedHashMap<>();
        for (String platform : accounts.keySet()) {
            String comment = "Menu and tickets: link in bio (" + platform + " " + UUID.randomUUID() + ")";
            comments.put(platform, comment);
            posts.put(
                    platform,
                    live.post("{\"text\":\"Open day " + UUID.randomUUID() + "\"" + media.get(platform)
                            + ",\"account_ids\":[\"" + accounts.get(platform) + "\"],\"first_comment\":{\"text\":\""
                            + comment + "\"}}"));
        }

        for (String platform : accounts.keySet()) {
            String postId = posts.get(platform);
            JsonPath post = awaitFirstComment(postId);
            assertThat(post.getString("data.status")).as(platform).isEqualTo("published");
            assertThat(post.getString("data.targets[0].status")).as(platform).isEqualTo("published");
            assertThat(post.getString("data.targets[0].first_comment.status"))
                    .as("%s first comment", platform)
                    .isEqualTo("published");
            String commentId = post.getString("data.targets[0].first_comment.comment_id");
            assertThat(commentId).as(platform).isNotBlank();

            // The platform's documented call, once, as the account, on the published item.
            String item = post.getString("data.targets[0].provider_post_id");
            List<Map<String, Object>> calls = calls(platform, started);
            assertThat(calls).as("%s comment calls", platform).hasSize(1);
            assertThat(((Number) calls.get(0).get("status")).intValue() / 100)
                    .as(platform)
                    .isEqualTo(2);
            String sent = calls.get(0).get("path") + "?" + calls.get(0).get("raw_query") + " "
                    + calls.get(0).get("body");
            assertThat(sent)
                    .as("%s call names the item", platform)
                    .contains(platform.equals("linkedin") ? item.substring(item.lastIndexOf(':') + 1) : item);

            // On the platform: Herald's live read of the post's comments finds it, from the account.
            List<Map<String, Object>> read = as(live.key())
                    .queryParam("post_id", postId)
                    .get("/comments")
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath()
                    .getList("data");
            assertThat(read).as("%s comments", platform).anySatisfy(comment -> {
                assertThat(comment.get("text")).isEqualTo(comments.get(platform));
                assertThat(comment.get("from_account")).isEqualTo(true);
                assertThat(comment.get("parent_id")).isNull();
            });

            JsonPath event = awaitEvent("post.published", postId);
            assertThat(event.getString("data.targets[0].first_comment.status")).isEqualTo("published");
            assertThat(event.getString("data.targets[0].first_comment.comment_id"))
                    .isEqualTo(commentId);
        }
    }

    @Test
    void aFirstCommentTheFakeRefusesLeavesThePostPublishedAndTheCommentFailed() throws Exception {
        fakes().contentType(ContentType.JSON)
                .body("{\"kind\":\"refuse\",\"method\":\"POST\",\"path\":\"/v24\\\\.0/[0-9_]+/comments\"}")
                .post("/_fakes/facebook/failures")
                .then()
                .statusCode(201);
        String postId = live.post("{\"text\":\"Refused comment " + UUID.randomUUID() + "\",\"account_ids\":[\""
                + accounts.get("facebook") + "\"],\"first_comment\":{\"text\":\"Buy now!!!\"}}");

        JsonPath post = awaitFirstComment(postId);
        assertThat(post.getString("data.status")).isEqualTo("published");
        assertThat(post.getString("data.targets[0].status")).isEqualTo("published");
        assertThat(post.getString("data.targets[0].first_comment.status")).isEqualTo("failed");
        assertThat(post.getString("data.targets[0].first_comment.error.code")).isEqualTo("provider_error");
        assertThat(post.getString("data.targets[0].first_comment.error.message"))
                .contains("deemed abusive");
        assertThat(post.getString("data.targets[0].first_comment.error.category"))
                .isEqualTo("content");
        assertThat(post.getBoolean("data.targets[0].first_comment.error.retryable"))
                .isFalse();
        assertThat(post.getString("data.targets[0].first_comment.comment_id")).isNull();

        JsonPath event = awaitEvent("post.published", postId);
        assertThat(event.getString("data.targets[0].first_comment.status")).isEqualTo("failed");
        assertThat(event.getString("data.targets[0].first_comment.error.code")).isEqualTo("provider_error");
    }

    /** The comment-creating calls the platform's fake received since {@code started}. */
    private static List<Map<String, Object>> calls(String platform, Instant started) {
        return FakeRequests.of(platform).stream()
                .filter(request -> "POST".equals(request.get("method"))
                        && !FakeRequests.receivedAt(request).isBefore(started)
                        && String.valueOf(request.get("path")).matches(commentPath(platform)))
                .toList();
    }

    /** The path of a first comment's call on each platform, as the fake's journal shows it. */
    private static String commentPath(String platform) {
        return switch (platform) {
            case "facebook", "instagram" -> "/v24\\.0/[^/]+/comments";
            case "youtube" -> "/youtube/v3/commentThreads";
            default -> "/rest/socialActions/[^/]+/comments";
        };
    }

    /** The post once it is final and its first comment is no longer pending. */
    private JsonPath awaitFirstComment(String postId) throws InterruptedException {
        return PostsPipelineIT.awaitPost(
                live.key(),
                postId,
                post -> PostsPipelineIT.FINAL.contains(post.getString("data.status"))
                        && !"pending".equals(post.getString("data.targets[0].first_comment.status")),
                Duration.ofSeconds(90).toMillis());
    }

    private JsonPath awaitEvent(String type, String postId) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 30_000;
        while (System.currentTimeMillis() < deadline) {
            for (Receiver.Request request : receiver.requests()) {
                JsonPath body = request.verify(secret);
                if (type.equals(body.getString("type")) && postId.equals(body.getString("data.id"))) {
                    return body;
                }
            }
            Thread.sleep(200);
        }
        throw new AssertionError("no " + type + " event for " + postId + " within 30 s");
    }
}
