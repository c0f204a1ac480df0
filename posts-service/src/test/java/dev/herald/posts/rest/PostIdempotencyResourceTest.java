package dev.herald.posts.rest;

import static dev.herald.posts.support.PostsTestSupport.as;
import static dev.herald.posts.support.PostsTestSupport.testAccount;
import static dev.herald.posts.support.PostsTestSupport.textPost;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.herald.common.auth.Mode;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.posts.support.FakeUpstreams;
import dev.herald.posts.support.PostsTestSupport;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The {@code Idempotency-Key} of {@code POST /posts} ({@code IdempotencyKeyClaims}): replays, reuse, races, refusals. */
@QuarkusTest
@WithTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = PostsTestSupport.DATABASE),
        scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakeUpstreams.class, scope = TestResourceScope.MATCHING_RESOURCES)
class PostIdempotencyResourceTest {
    private String workspace;

    @BeforeEach
    void newWorkspace() {
        FakeUpstreams.ensureStarted();
        workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
    }

    @AfterEach
    void noDelay() {
        FakeUpstreams.reserveDelayMillis = 0;
    }

    @Test
    void anIdenticalReplayAnswersTheOriginalBodyFreeOfCharge() {
        String linkedIn = testAccount(workspace, "linkedin", null);
        String key = UUID.randomUUID().toString();
        String body = textPost(linkedIn, "Once");
        String first = as(workspace, Mode.TEST)
                .header("Idempotency-Key", key)
                .body(body)
                .post("/posts")
                .then()
                .statusCode(202)
                .extract()
                .asString();
        int batches = FakeUpstreams.BATCHES.get();
        // The same JSON with other whitespace and member order is the same request.
        String reordered = "{ \"account_ids\" : [\"" + linkedIn + "\"], \"text\" : \"Once\" }";
        Response replay = as(workspace, Mode.TEST)
                .header("Idempotency-Key", key)
                .body(reordered)
                .post("/posts");
        replay.then().statusCode(200).header("Idempotency-Replayed", "true");
        assertThat(replay.asString()).isEqualTo(first);
        assertThat(FakeUpstreams.BATCHES.get()).isEqualTo(batches);
        assertThat(FakeUpstreams.reserved(workspace, "test")).isEqualTo(1);
    }

    @Test
    void aReplayGetsTheStoredAnswerEvenWhenItsAccountWasDisconnectedSince() {
        String linkedIn = testAccount(workspace, "linkedin", null);
        String key = UUID.randomUUID().toString();
        String first = as(workspace, Mode.TEST)
                .header("Idempotency-Key", key)
                .body(textPost(linkedIn, "Once"))
                .post("/posts")
                .then()
                .statusCode(202)
                .extract()
                .asString();
        FakeUpstreams.disconnect(workspace, "test", linkedIn);

        Response replay = as(workspace, Mode.TEST)
                .header("Idempotency-Key", key)
                .body(textPost(linkedIn, "Once"))
                .post("/posts");
        replay.then().statusCode(200).header("Idempotency-Replayed", "true");
        assertThat(replay.asString()).isEqualTo(first);
        as(workspace, Mode.TEST)
                .header("Idempotency-Key", key)
                .body(textPost(linkedIn, "Twice"))
                .post("/posts")
                .then()
                .statusCode(422)
                .body("error.code", equalTo("idempotency_key_reused"));
        // A new key gets today's answer: the account must be reconnected first.
        as(workspace, Mode.TEST)
                .header("Idempotency-Key", UUID.randomUUID().toString())
                .body(textPost(linkedIn, "Once"))
                .post("/posts")
                .then()
                .statusCode(422)
                .body("error.code", equalTo("account_reauth_required"));
        assertThat(FakeUpstreams.reserved(workspace, "test")).isEqualTo(1);
    }

    @Test
    void aDifferentRequestUnderAUsedKeyIsRefused() {
        String linkedIn = testAccount(workspace, "linkedin", null);
        String key = UUID.randomUUID().toString();
        as(workspace, Mode.TEST)
                .header("Idempotency-Key", key)
                .body(textPost(linkedIn, "One"))
                .post("/posts")
                .then()
                .statusCode(202);
        as(workspace, Mode.TEST)
                .header("Idempotency-Key", key)
                .body(textPost(linkedIn, "Two"))
                .post("/posts")
                .then()
                .statusCode(422)
                .body("error.code", equalTo("idempotency_key_reused"));
        // Keys belong to one workspace and mode: the same key elsewhere is a new request.
        String other = FakeUpstreams.addAccount(workspace, "live", "linkedin", "live_user", null);
        as(workspace, Mode.LIVE)
                .header("Idempotency-Key", key)
                .body(textPost(other, "One"))
                .post("/posts")
                .then()
                .statusCode(202);
    }

    @Test
    void theIdempotencyKeyIsRequiredAndBounded() {
        String body = textPost(testAccount(workspace, "linkedin", null), "Hi");
        as(workspace, Mode.TEST)
                .body(body)
                .post("/posts")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("idempotency_key_required"));
        as(workspace, Mode.TEST)
                .header("Idempotency-Key", "k".repeat(256))
                .body(body)
                .post("/posts")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("invalid_request"));
        as(workspace, Mode.TEST)
                .header("Idempotency-Key", "a")
                .header("Idempotency-Key", "b")
                .body(body)
                .post("/posts")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("invalid_request"));
    }

    @Test
    void twentyConcurrentIdenticalRequestsCreateExactlyOnePost() throws Exception {
        String linkedIn = testAccount(workspace, "linkedin", null);
        String key = UUID.randomUUID().toString();
        String body = textPost(linkedIn, "Race");
        FakeUpstreams.reserveDelayMillis = 300;
        ExecutorService pool = Executors.newFixedThreadPool(20);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Integer>> answers = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            answers.add(pool.submit(() -> {
                start.await();
                return as(workspace, Mode.TEST)
                        .header("Idempotency-Key", key)
                        .body(body)
                        .post("/posts")
                        .statusCode();
            }));
        }
        start.countDown();
        List<Integer> statuses = new ArrayList<>();
        for (Future<Integer> answer : answers) {
            statuses.add(answer.get());
        }
        pool.shutdown();
        assertThat(statuses).containsOnlyOnce(202);
        assertThat(statuses).allMatch(status -> status == 202 || status == 200 || status == 409);
        assertThat(PostsTestSupport.count("select count(*) from posts where workspace_id = ?", workspace))
                .isEqualTo(1);
        assertThat(FakeUpstreams.reserved(workspace, "test")).isEqualTo(1);
        FakeUpstreams.reserveDelayMillis = 0;
        as(workspace, Mode.TEST)
                .header("Idempotency-Key", key)
                .body(body)
                .post("/posts")
                .then()
                .statusCode(200);
    }

    @Test
    void anAllowanceRefusalAcceptsNothingAndFreesTheKey() {
        String linkedIn = testAccount(workspace, "linkedin", null);
        FakeUpstreams.setPublicationLimit(workspace, "test", 0);
        String key = UUID.randomUUID().toString();
        as(workspace, Mode.TEST)
                .header("Idempotency-Key", key)
                .body(textPost(linkedIn, "Hi"))
                .post("/posts")
                .then()
                .statusCode(429)
                .header("Retry-After", "777")
                .body("error.code", equalTo("usage_limit_exceeded"))
                .body("error.details.metric", equalTo("publications"))
                .body("error.details.retry_after_seconds", equalTo(777));
        assertThat(as(workspace, Mode.TEST)
                        .get("/posts")
                        .then()
                        .statusCode(200)
                        .extract()
                        .<List<?>>path("data"))
                .isEmpty();
        FakeUpstreams.setPublicationLimit(workspace, "test", 10);
        as(workspace, Mode.TEST)
                .header("Idempotency-Key", key)
                .body(textPost(linkedIn, "Hi"))
                .post("/posts")
                .then()
                .statusCode(202);
    }
}
