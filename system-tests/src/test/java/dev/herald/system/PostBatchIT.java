package dev.herald.system;

import static dev.herald.system.RunningSuite.as;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.system.HostedConnect.LiveWorkspace;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * {@code POST /posts/batch} through the gateway with the real posts-service and usage-service: partial success item by
 * item, a replay that creates nothing, and an allowance that runs out part-way. The posts are scheduled hours ahead, so
 * nothing is published while the suite runs.
 */
class PostBatchIT {
    private static final String LATER = Instant.now()
            .plus(2, ChronoUnit.HOURS)
            .truncatedTo(ChronoUnit.SECONDS)
            .toString();

    /** A batch of {@code count} posts; {@code post} gives each one's body without its key. */
    private static String batch(String run, int count, IntFunction<String> post) {
        return IntStream.range(0, count)
                .mapToObj(i -> "{\"idempotency_key\":\"" + run + "-" + i + "\"," + post.apply(i) + "}")
                .collect(Collectors.joining(",", "{\"posts\":[", "]}"));
    }

    private static String scheduled(String account, String text) {
        return "\"text\":\"" + text + "\",\"account_ids\":[\"" + account + "\"],\"scheduled_at\":\"" + LATER + "\"";
    }

    private static JsonPath send(String key, String body) {
        return as(key).contentType(ContentType.JSON)
                .body(body)
                .post("/posts/batch")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
    }

    private static int postCount(String key) {
        return ApiLists.pages(() -> as(key), "/posts", 100).stream()
                .mapToInt(page -> page.getList("data").size())
                .sum();
    }

    @Test
    void aHundredPostsWithThreeInvalidAcceptNinetySevenAndAReplayCreatesNothing() {
        String key = PostsPipelineIT.testKey("Batch");
        String account = PostsPipelineIT.account(key, "linkedin", "batch_linkedin");
        String run = UUID.randomUUID().toString();
        Map<Integer, String> invalid = Map.of(
                7, "\"text\":\"" + "x".repeat(5001) + "\",\"account_ids\":[\"" + account + "\"]",
                42, scheduled("acc_" + "0".repeat(24), "No such account"),
                99,
                        "\"text\":\"Past\",\"account_ids\":[\"" + account
                                + "\"],\"scheduled_at\":\"2020-01-01T00:00:00Z\"");
        String body = batch(run, 100, i -> invalid.getOrDefault(i, scheduled(account, "Post " + i)));

        JsonPath answer = send(key, body);
        List<Integer> statuses = answer.getList("data.status");
        assertThat(answer.getList("data.index", Integer.class)).containsExactlyElementsOf(range(100));
        for (int i = 0; i < 100; i++) {
            assertThat(statuses.get(i))
                    .as("post %d: %s", i, answer.getMap("data[" + i + "]"))
                    .isEqualTo(invalid.containsKey(i) ? 422 : 202);
        }
        for (int i : invalid.keySet()) {
            assertThat(answer.getString("data[" + i + "].error.code")).isEqualTo("validation_failed");
            assertThat(answer.getMap("data[" + i + "]")).doesNotContainKey("post");
        }
        assertThat(answer.getList("data[7].error.details.errors.field")).contains("text");
        assertThat(answer.getList("data[42].error.details.errors.field")).contains("account_ids[0]");
        assertThat(answer.getList("data[99].error.details.errors.field")).contains("scheduled_at");
        assertThat(answer.getString("data[0].post.text")).isEqualTo("Post 0");
        assertThat(answer.getString("data[0].post.status")).isEqualTo("queued");
        List<String> ids = postIds(answer);
        assertThat(ids).hasSize(97).doesNotHaveDuplicates();
        assertThat(postCount(key)).isEqualTo(97);

        JsonPath usageBefore = RunningSuite.usage(key);
        JsonPath replay = send(key, body);
        JsonPath usageAfter = RunningSuite.usage(key);
        for (int i = 0; i < 100; i++) {
            assertThat(replay.getInt("data[" + i + "].status")).isEqualTo(invalid.containsKey(i) ? 422 : 200);
        }
        assertThat(postIds(replay)).isEqualTo(ids);
        // Nothing counted but the usage read itself, nothing more reserved.
        assertThat(usageAfter.getInt("api_requests.used")).isEqualTo(usageBefore.getInt("api_requests.used") + 1);
        assertThat(usageAfter.getMap("publications")).isEqualTo(usageBefore.getMap("publications"));
        assertThat(postCount(key)).isEqualTo(97);
    }

    @Test
    @ResourceLock(RunningSuite.LINKEDIN_FAKE)
    void aBatchCrossingTheAllowanceAcceptsExactlyTheAllowedNumber() {
        LiveWorkspace live = LiveWorkspace.create("Batch allowance", "starter");
        String key = live.key();
        String account = (String) HostedConnect.connect(live, "linkedin").get(0).get("id");
        Map<String, Object> apiRequests = RunningSuite.usage(key).getMap("api_requests");
        assertThat(apiRequests.get("limit")).isEqualTo(RunningSuite.STARTER_API_REQUESTS);
        int remaining = (Integer) apiRequests.get("remaining");
        assertThat(remaining).as("the starter allowance left for the batch").isPositive();

        String run = UUID.randomUUID().toString();
        JsonPath answer = send(key, batch(run, remaining + 3, i -> scheduled(account, "Post " + i)));
        List<Integer> expected = new ArrayList<>();
        IntStream.range(0, remaining).forEach(i -> expected.add(202));
        IntStream.range(0, 3).forEach(i -> expected.add(429));
        assertThat(answer.getList("data.status", Integer.class)).containsExactlyElementsOf(expected);
        for (int i = remaining; i < remaining + 3; i++) {
            assertThat(answer.getString("data[" + i + "].error.code")).isEqualTo("usage_limit_exceeded");
            assertThat(answer.getInt("data[" + i + "].error.details.limit"))
                    .isEqualTo(RunningSuite.STARTER_API_REQUESTS);
        }
        // Spent: every request is refused now, the next batch too.
        as(key).contentType(ContentType.JSON)
                .body(batch(run, 1, i -> scheduled(account, "One more")))
                .post("/posts/batch")
                .then()
                .statusCode(429);
    }

    private static List<String> postIds(JsonPath answer) {
        return answer.<String>getList("data.post.id").stream()
                .filter(Objects::nonNull)
                .toList();
    }

    private static List<Integer> range(int count) {
        return IntStream.range(0, count).boxed().toList();
    }
}
