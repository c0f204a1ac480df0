package dev.herald.gateway.proxy;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;

import dev.herald.gateway.AdminApi;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code POST /api/v1/posts/batch} against a stand-in posts-service ({@link EchoUpstream#acceptPost}). */
@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "gateway_test"))
@QuarkusTestResource(EchoUpstream.class)
class PostBatchRouteTest {

    private String workspace;
    private String key;
    /** Keys unique to this test, so the stand-in's memory of other tests' keys does not answer. */
    private final String run = UUID.randomUUID().toString();

    @BeforeEach
    void newWorkspace() {
        workspace = AdminApi.newWorkspace("Batch");
        key = AdminApi.newKeySecret(workspace, "live");
    }

    private Response batch(String body) {
        return given().header("Authorization", "Bearer " + key)
                .contentType(ContentType.JSON)
                .body(body)
                .post("/api/v1/posts/batch");
    }

    /** A batch of posts with these texts, keyed {@code <run>-<index>}. */
    private String posts(String... texts) {
        return IntStream.range(0, texts.length)
                .mapToObj(i -> "{\"idempotency_key\":\"" + run + "-" + i + "\",\"text\":\"" + texts[i]
                        + "\",\"account_ids\":[\"acc_0123456789abcdef01234567\"]}")
                .collect(Collectors.joining(",", "{\"posts\":[", "]}"));
    }

    private List<String> postedKeys() {
        return EchoUpstream.POSTED_KEYS.stream().filter(k -> k.startsWith(run)).toList();
    }

    private long usedIncludingThisRead() {
        return given().header("Authorization", "Bearer " + key)
                .get("/api/v1/usage")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getLong("data.api_requests.used");
    }

    @Test
    void eachPostIsSentInOrderWithItsKeyAndAnsweredAtItsIndex() {
        JsonPath answer = batch(posts("One", "invalid", "Three"))
                .then()
                .statusCode(200)
                .header("X-RateLimit-Limit", "30")
                .extract()
                .jsonPath();
        assertThat(postedKeys()).containsExactly(run + "-0", run + "-1", run + "-2");
        assertThat(answer.getList("data.index")).containsExactly(0, 1, 2);
        assertThat(answer.getList("data.status")).containsExactly(202, 422, 202);
        assertThat(answer.getString("data[0].post.text")).isEqualTo("One");
        assertThat(answer.getString("data[0].post.id")).startsWith("pst_");
        assertThat(answer.getMap("data[0]")).doesNotContainKey("error");
        assertThat(answer.getString("data[1].error.code")).isEqualTo("validation_failed");
        assertThat(answer.getString("data[1].error.details.errors[0].field")).isEqualTo("text");
        assertThat(answer.getMap("data[1]")).doesNotContainKey("post");
        assertThat(answer.getString("data[2].post.text")).isEqualTo("Three");

        // The same batch again: accepted posts replay, the invalid one is refused again, nothing new is created.
        JsonPath replay = batch(posts("One", "invalid", "Three"))
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(replay.getList("data.status")).containsExactly(200, 422, 200);
        assertThat(replay.getString("data[2].post.id")).isEqualTo(answer.getString("data[2].post.id"));
        // A key sent again with another post is refused for that post alone.
        assertThat(batch(posts("Changed"))
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getString("data[0].error.code"))
                .isEqualTo("idempotency_key_reused");
    }

    @Test
    void onlyAcceptedPostsCountAsApiRequests() {
        long before = usedIncludingThisRead();
        batch(posts("One", "invalid", "Three", "Four")).then().statusCode(200);
        // Three accepted posts, and this read.
        assertThat(usedIncludingThisRead()).isEqualTo(before + 3 + 1);
        batch(posts("One", "invalid", "Three", "Four")).then().statusCode(200);
        // Replays and refusals are free; the batch itself is no API request.
        assertThat(usedIncludingThisRead()).isEqualTo(before + 3 + 1 + 1);
    }

    @Test
    void aBatchThatSpendsTheAllowanceAcceptsTheFirstPostsAndRefusesTheRestUnsent() {
        EchoUpstream.ENTITLEMENTS.put(workspace + ":live", new long[] {100, 3});
        JsonPath answer = batch(posts("One", "Two", "Three", "Four", "Five"))
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(answer.getList("data.status")).containsExactly(202, 202, 202, 429, 429);
        assertThat(answer.getList("data.error.code")).containsExactly("usage_limit_exceeded", "usage_limit_exceeded");
        assertThat(answer.getInt("data[3].error.details.limit")).isEqualTo(3);
        assertThat(answer.getString("data[3].error.details.metric")).isEqualTo("api_requests");
        assertThat(postedKeys()).containsExactly(run + "-0", run + "-1", run + "-2");
        // Spent: the next batch is refused whole, as every request is.
        batch(posts("Six")).then().statusCode(429).body("error.code", equalTo("usage_limit_exceeded"));
    }

    @Test
    void aBatchThatFillsTheMinutesWindowRefusesTheRestWithTheRateLimitAndSaysSoInItsHeaders() throws Exception {
        int second = Instant.now().atOffset(ZoneOffset.UTC).getSecond();
        if (second > 50) {
            Thread.sleep((61 - second) * 1000L);
        }
        EchoUpstream.ENTITLEMENTS.put(workspace + ":live", new long[] {4, 2000});
        JsonPath answer = batch(posts("One", "Two", "Three", "Four", "Five", "Six"))
                .then()
                .statusCode(200)
                .header("X-RateLimit-Limit", "4")
                .header("X-RateLimit-Remaining", "0")
                .extract()
                .jsonPath();
        // The batch request takes a place in the window too, so at most three posts fit.
        List<Integer> statuses = answer.getList("data.status");
        int accepted = statuses.lastIndexOf(202) + 1;
        assertThat(accepted).isBetween(1, 3);
        assertThat(statuses.subList(0, accepted)).containsOnly(202);
        assertThat(statuses.subList(accepted, statuses.size())).containsOnly(429);
        assertThat(answer.getList("data.error.code")).containsOnly("rate_limit_exceeded");
        assertThat(postedKeys()).hasSize(accepted);
    }

    @Test
    void oncePostsServiceCannotBeReachedTheLaterPostsAreUnavailableUnsentAndNothingIsCounted() {
        long before = usedIncludingThisRead();
        JsonPath answer = batch(posts("One", "unreachable", "Three"))
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(answer.getList("data.status")).containsExactly(202, 503, 503);
        assertThat(answer.getList("data.error.code")).containsExactly("service_unavailable", "service_unavailable");
        assertThat(postedKeys()).containsExactly(run + "-0", run + "-1");
        assertThat(usedIncludingThisRead()).isEqualTo(before + 1 + 1);
    }

    @Test
    void aMalformedBatchIsRefusedWholeBeforeAnyPostIsSent() {
        batch("{\"posts\":[{\"idempotency_key\":\"" + run + "\",\"text\":\"Hi\"},5,{\"text\":\"no key\"},"
                        + "{\"idempotency_key\":\"" + run + "\"}],\"extra\":1}")
                .then()
                .statusCode(422)
                .body("error.code", equalTo("validation_failed"))
                .body(
                        "error.details.errors.field",
                        hasItems("extra", "posts[1]", "posts[2].idempotency_key", "posts[3].idempotency_key"));
        batch("{\"posts\":[]}").then().statusCode(422).body("error.details.errors[0].field", equalTo("posts"));
        batch("{\"posts\":").then().statusCode(400).body("error.code", equalTo("invalid_request"));
        batch("[]").then().statusCode(400).body("error.code", equalTo("invalid_request"));
        given().header("Authorization", "Bearer " + key)
                .contentType(ContentType.TEXT)
                .body(posts("Hi"))
                .post("/api/v1/posts/batch")
                .then()
                .statusCode(415);
        given().header("Authorization", "Bearer " + AdminApi.newKeySecret(workspace, "live", "posts:read"))
                .contentType(ContentType.JSON)
                .body(posts("Hi"))
                .post("/api/v1/posts/batch")
                .then()
                .statusCode(403)
                .body("error.details.required_scope", equalTo("posts:write"));
        assertThat(postedKeys()).isEmpty();
    }

    @Test
    void aBatchMayBeLargerThanOneMibButEachPostNot() {
        String big = "x".repeat(1024 * 1024 + 1);
        JsonPath answer = batch(posts("One", big, "Three"))
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(answer.getList("data.status")).containsExactly(202, 413, 202);
        assertThat(answer.getString("data[1].error.code")).isEqualTo("payload_too_large");
        assertThat(postedKeys()).containsExactly(run + "-0", run + "-2");

        batch(posts(big.repeat(8)))
                .then()
                .statusCode(413)
                .body("error.code", equalTo("payload_too_large"))
                .body("error.message", equalTo("The request body is larger than 8 MiB."));
    }

    @Test
    void theBatchIsOneRequestInTheLogs() throws Exception {
        String requestId =
                batch(posts("One", "Two")).then().statusCode(200).extract().header("x-request-id");
        for (int attempt = 0; attempt < 40; attempt++) {
            List<Map<String, Object>> logs = given().header("Authorization", "Bearer " + key)
                    .get("/api/v1/logs?path=/api/v1/posts")
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath()
                    .getList("data");
            if (!logs.isEmpty()) {
                assertThat(logs).hasSize(1);
                assertThat(logs.get(0))
                        .containsEntry("id", requestId)
                        .containsEntry("method", "POST")
                        .containsEntry("path", "/api/v1/posts/batch")
                        .containsEntry("status", 200);
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the batch was never logged");
    }
}
