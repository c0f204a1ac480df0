package dev.herald.system;

import static dev.herald.system.RunningSuite.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * Posts from acceptance to their final status, as a customer sees them through the gateway: the real
 * posts-service, delivery-worker (test-mode simulator) and usage-service, over the real broker.
 */
class PostsPipelineIT {
    static final Set<String> FINAL = Set.of("published", "partially_failed", "failed", "canceled");

    /** A test key of a fresh workspace on the scale plan (these tests poll; see RunningSuite.SCALE_PER_MINUTE). */
    static String testKey(String name) {
        String workspace = RunningSuite.newWorkspace(name);
        RunningSuite.admin()
                .body("{\"mode\":\"test\",\"plan\":\"scale\",\"plan_source\":\"comp\"}")
                .put("/admin/v1/workspaces/" + workspace + "/plan")
                .then()
                .statusCode(200);
        return RunningSuite.newKey(workspace, "test");
    }

    static String account(String key, String platform, String username) {
        String body = "{\"platform\":\"" + platform + "\",\"username\":\"" + username + "\"}";
        Response created = as(key).contentType(ContentType.JSON).body(body).post("/accounts");
        if (created.statusCode() == 503) {
            // The API's transient answer, which clients retry: on a machine busy with other suites, usage-service's
            // first answers to a just-started accounts-service can take longer than its 5 s (see ConnectOnboardingIT).
            created = as(key).contentType(ContentType.JSON).body(body).post("/accounts");
        }
        return created.then().statusCode(201).extract().path("data.id");
    }

    static Response post(String key, String idempotencyKey, String body) {
        return as(key).contentType(ContentType.JSON)
                .header("Idempotency-Key", idempotencyKey)
                .body(body)
                .post("/posts");
    }

    static String linkedIn(String... accountIds) {
        return "{\"text\":\"Hello from Herald\",\"account_ids\":[\"" + String.join("\",\"", accountIds) + "\"]}";
    }

    static String accepted(String key, String body) {
        return post(key, UUID.randomUUID().toString(), body)
                .then()
                .statusCode(202)
                .body("data.status", equalTo("queued"))
                .extract()
                .path("data.id");
    }

    static JsonPath awaitPost(String key, String id, Predicate<JsonPath> done, long timeoutMillis)
            throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        JsonPath post =
                as(key).get("/posts/" + id).then().statusCode(200).extract().jsonPath();
        while (!done.test(post) && System.currentTimeMillis() < deadline) {
            Thread.sleep(300);
            post = as(key).get("/posts/" + id).then().statusCode(200).extract().jsonPath();
        }
        return post;
    }

    static JsonPath awaitFinal(String key, String id) throws InterruptedException {
        return awaitPost(key, id, post -> FINAL.contains(post.getString("data.status")), 30_000);
    }

    /** The publications meter once it shows {@code expected} (usage settles asynchronously), or as it is at the deadline. */
    static Map<String, Object> awaitPublications(String key, Predicate<Map<String, Object>> expected)
            throws InterruptedException {
        return awaitPublications(key, expected, Duration.ofSeconds(20));
    }

    static Map<String, Object> awaitPublications(String key, Predicate<Map<String, Object>> expected, Duration patience)
            throws InterruptedException {
        long deadline = System.currentTimeMillis() + patience.toMillis();
        Map<String, Object> meter = as(key).get("/usage")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getMap("data.publications");
        while (!expected.test(meter) && System.currentTimeMillis() < deadline) {
            Thread.sleep(300);
            meter = as(key).get("/usage")
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath()
                    .getMap("data.publications");
        }
        return meter;
    }

    static Predicate<Map<String, Object>> meter(int used, int reserved) {
        return meter -> meter.get("used").equals(used) && meter.get("reserved").equals(reserved);
    }

    @Test
    void aTestPostPublishesWithTheProvidersPostAndUsesOnePublication() throws Exception {
        String key = testKey("Publish");
        // A slow_ sandbox account takes 3 s to publish, so the reservation is still there when the meter is read: a
        // plain one can publish before the first read, and the reserved state would never be seen.
        String account = account(key, "linkedin", "slow_brand");
        String id = accepted(key, linkedIn(account));
        assertThat(awaitPublications(key, meter(0, 1)))
                .containsEntry("reserved", 1)
                .containsEntry("used", 0);

        JsonPath post = awaitFinal(key, id);
        assertThat(post.getString("data.status")).isEqualTo("published");
        assertThat(post.getString("data.targets[0].status")).isEqualTo("published");
        assertThat(post.getInt("data.targets[0].attempts")).isEqualTo(1);
        assertThat(post.getString("data.targets[0].provider_post_id")).isNotBlank();
        assertThat(post.getString("data.targets[0].url")).startsWith("https://");
        assertThat(awaitPublications(key, meter(1, 0)))
                .containsEntry("used", 1)
                .containsEntry("reserved", 0)
                .containsEntry("remaining", 999);
    }

    @Test
    void aFailingAccountFailsItsTargetAndAMixPartiallyFails() throws Exception {
        String key = testKey("Failures");
        String good = account(key, "linkedin", "brand");
        String bad = account(key, "facebook", "fail_brand");
        String failed = accepted(key, linkedIn(bad));
        String mixed = accepted(key, linkedIn(good, bad));

        JsonPath failedPost = awaitFinal(key, failed);
        assertThat(failedPost.getString("data.status")).isEqualTo("failed");
        assertThat(failedPost.getString("data.targets[0].error.code")).isEqualTo("provider_error");
        assertThat(failedPost.getBoolean("data.targets[0].error.retryable")).isFalse();
        JsonPath mixedPost = awaitFinal(key, mixed);
        assertThat(mixedPost.getString("data.status")).isEqualTo("partially_failed");
        assertThat(mixedPost.getList("data.targets.status")).containsExactly("published", "failed");
        // Two failed targets released, one published target used.
        assertThat(awaitPublications(key, meter(1, 0))).containsEntry("used", 1).containsEntry("reserved", 0);
    }

    @Test
    void aFlakyAccountIsRetriedAndPublishesOnItsSecondAttempt() throws Exception {
        String key = testKey("Flaky");
        String id = accepted(key, linkedIn(account(key, "linkedin", "flaky_brand")));
        JsonPath post = awaitFinal(key, id);
        assertThat(post.getString("data.status")).isEqualTo("published");
        assertThat(post.getInt("data.targets[0].attempts")).isEqualTo(2);
    }

    @Test
    void aScheduledPostStaysQueuedUntilDueThenPublishes() throws Exception {
        String key = testKey("Scheduled");
        String account = account(key, "linkedin", "brand");
        Instant at = Instant.now().plusSeconds(12).truncatedTo(ChronoUnit.SECONDS);
        String id = accepted(
                key, "{\"text\":\"Later\",\"account_ids\":[\"" + account + "\"],\"scheduled_at\":\"" + at + "\"}");
        assertThat(awaitPublications(key, meter(0, 1))).containsEntry("reserved", 1);
        Thread.sleep(Math.max(0, at.toEpochMilli() - System.currentTimeMillis() - 2000));
        as(key).get("/posts/" + id).then().body("data.status", equalTo("queued"));

        JsonPath post = awaitFinal(key, id);
        assertThat(post.getString("data.status")).isEqualTo("published");
        assertThat(Instant.parse(post.getString("data.targets[0].completed_at")))
                .isAfterOrEqualTo(at);
        assertThat(awaitPublications(key, meter(1, 0))).containsEntry("used", 1).containsEntry("reserved", 0);
    }

    @Test
    void cancelingAScheduledPostReleasesItsPublication() throws Exception {
        String key = testKey("Cancel");
        String account = account(key, "linkedin", "brand");
        String id = accepted(
                key,
                "{\"text\":\"Never\",\"account_ids\":[\"" + account + "\"],\"scheduled_at\":\""
                        + Instant.now().plus(1, ChronoUnit.HOURS) + "\"}");
        assertThat(awaitPublications(key, meter(0, 1))).containsEntry("reserved", 1);
        as(key).delete("/posts/" + id).then().statusCode(200).body("data.status", equalTo("canceled"));
        as(key).delete("/posts/" + id).then().statusCode(409).body("error.code", equalTo("post_not_cancelable"));
        assertThat(awaitPublications(key, meter(0, 0)))
                .containsEntry("reserved", 0)
                .containsEntry("used", 0);
    }

    @Test
    void aReplayIsFreeAndAnswersTheSameBodyWhileADifferentBodyIsRefused() {
        String key = testKey("Replay");
        String account = account(key, "linkedin", "brand");
        String idempotencyKey = UUID.randomUUID().toString();
        String first = post(key, idempotencyKey, linkedIn(account))
                .then()
                .statusCode(202)
                .extract()
                .asString();
        int requests = as(key).get("/usage").then().extract().path("data.api_requests.used");

        Response replay = post(key, idempotencyKey, linkedIn(account));
        replay.then().statusCode(200).header("Idempotency-Replayed", "true");
        assertThat(replay.asString()).isEqualTo(first);
        // Only the /usage read itself was counted since: the replay was free.
        assertThat(as(key).get("/usage").then().extract().<Integer>path("data.api_requests.used"))
                .isEqualTo(requests + 1);
        // One publication for the post, reserved or by now used; none for the replay.
        JsonPath usage = as(key).get("/usage").then().extract().jsonPath();
        assertThat(usage.getInt("data.publications.reserved") + usage.getInt("data.publications.used"))
                .isEqualTo(1);

        post(key, idempotencyKey, "{\"text\":\"Something else\",\"account_ids\":[\"" + account + "\"]}")
                .then()
                .statusCode(422)
                .body("error.code", equalTo("idempotency_key_reused"));
    }

    @Test
    void twentyConcurrentIdenticalRequestsCreateExactlyOnePost() throws Exception {
        String key = testKey("Concurrent");
        String account = account(key, "linkedin", "brand");
        String idempotencyKey = UUID.randomUUID().toString();
        ExecutorService pool = Executors.newFixedThreadPool(20);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Integer>> answers = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            answers.add(pool.submit(() -> {
                start.await();
                return post(key, idempotencyKey, linkedIn(account)).statusCode();
            }));
        }
        start.countDown();
        List<Integer> statuses = new ArrayList<>();
        for (Future<Integer> answer : answers) {
            statuses.add(answer.get());
        }
        pool.shutdown();
        assertThat(statuses).containsOnlyOnce(202).allMatch(status -> status == 202 || status == 200 || status == 409);
        assertThat(as(key).get("/posts").then().statusCode(200).extract().<List<?>>path("data"))
                .hasSize(1);
        assertThat(awaitPublications(key, meter(1, 0))).containsEntry("used", 1);
    }
}
