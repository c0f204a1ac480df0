package dev.herald.posts.rest;

import static dev.herald.posts.support.PostsTestSupport.as;
import static dev.herald.posts.support.PostsTestSupport.posting;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

import dev.herald.common.api.LimitRefusal;
import dev.herald.common.auth.Mode;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.common.wire.UsageReservation;
import dev.herald.posts.support.FakeUpstreams;
import dev.herald.posts.support.PostsTestSupport;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
@WithTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = PostsTestSupport.DATABASE),
        scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakeUpstreams.class, scope = TestResourceScope.MATCHING_RESOURCES)
class PostResourceTest {
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

    private String account(String platform, String profileId) {
        return FakeUpstreams.addAccount(
                workspace,
                "test",
                platform,
                "user_" + UUID.randomUUID().toString().substring(0, 6),
                profileId);
    }

    private static String linkedInPost(String accountId, String text) {
        return "{\"text\":\"" + text + "\",\"account_ids\":[\"" + accountId + "\"]}";
    }

    @Test
    void acceptsAPostWithEveryTargetQueuedAndReservesOnePublicationPerTarget() {
        String profile = ResourceIds.newId(IdPrefix.PROFILE);
        String linkedIn = account("linkedin", profile);
        String tiktok = account("tiktok", null);
        String id = posting(workspace, Mode.TEST)
                .body("{\"text\":\"Hello\",\"account_ids\":[\"" + linkedIn + "\",\"" + tiktok + "\"],"
                        + "\"media\":{\"url\":\"https://cdn.example.com/v.mp4\",\"type\":\"video\"},"
                        + "\"platform_options\":{\"tiktok\":{\"privacy_level\":\"SELF_ONLY\"}}}")
                .post("/posts")
                .then()
                .statusCode(202)
                .body("data.id", matchesPattern("^pst_[a-f0-9]{24}$"))
                .body("data.status", equalTo("queued"))
                .body("data.mode", equalTo("test"))
                .body("data.text", equalTo("Hello"))
                .body("data.scheduled_at", nullValue())
                .body("data.media.url", equalTo("https://cdn.example.com/v.mp4"))
                .body("data.platform_options.tiktok.privacy_level", equalTo("SELF_ONLY"))
                .body("data.targets", hasSize(2))
                .body("data.targets[0].account_id", equalTo(linkedIn))
                .body("data.targets[0].platform", equalTo("linkedin"))
                .body("data.targets[0].profile_id", equalTo(profile))
                .body("data.targets[0].status", equalTo("queued"))
                .body("data.targets[0].attempts", equalTo(0))
                .body("data.targets[1].account_id", equalTo(tiktok))
                .body("data.containsKey('final')", equalTo(false))
                .body("data.targets[0].containsKey('final')", equalTo(false))
                .body("data.created_at", matchesPattern("^\\d{4}-\\d{2}-\\d{2}T.*Z$"))
                .extract()
                .path("data.id");

        assertThat(FakeUpstreams.RESERVATIONS.get(UsageReservation.publicationId(id, linkedIn)))
                .isEqualTo("reserved");
        assertThat(FakeUpstreams.RESERVATIONS.get(UsageReservation.publicationId(id, tiktok)))
                .isEqualTo("reserved");
        assertThat(FakeUpstreams.holders(profile)).containsExactly(id);
        as(workspace, Mode.TEST)
                .get("/posts/" + id)
                .then()
                .statusCode(200)
                .body("data.id", equalTo(id))
                .body("data.targets", hasSize(2));
    }

    @Test
    void aLinkedInImagePostTakesItsAltTextWithinLinkedInsLimit() {
        String linkedIn = account("linkedin", null);
        String image = "\"media\":{\"url\":\"https://cdn.example.com/office.png\",\"type\":\"image\"},";
        posting(workspace, Mode.TEST)
                .body(
                        "{\"text\":\"Our office\",\"account_ids\":[\"" + linkedIn + "\"]," + image
                                + "\"platform_options\":{\"linkedin\":{\"visibility\":\"CONNECTIONS\",\"alt_text\":\"The team on the roof\"}}}")
                .post("/posts")
                .then()
                .statusCode(202)
                .body("data.platform_options.linkedin.alt_text", equalTo("The team on the roof"));
        posting(workspace, Mode.TEST)
                .body("{\"text\":\"Our office\",\"account_ids\":[\"" + linkedIn + "\"]," + image
                        + "\"platform_options\":{\"linkedin\":{\"alt_text\":\"" + "a".repeat(4087) + "\"}}}")
                .post("/posts")
                .then()
                .statusCode(422)
                .body("error.details.errors.field", hasItems("platform_options.linkedin.alt_text"));
    }

    @Test
    void validationReportsEveryFailingFieldAtOnceAndChargesNothing() {
        String tiktok = account("tiktok", null);
        String youtube = account("youtube", null);
        String pinterest = account("pinterest", null);
        String unknown = ResourceIds.newId(IdPrefix.ACCOUNT);
        String body =
                "{\"text\":\"" + "x".repeat(2300) + "\",\"account_ids\":[\"" + tiktok + "\",\"" + youtube + "\",\""
                        + pinterest + "\",\"" + unknown + "\",\"" + tiktok + "\"],"
                        + "\"scheduled_at\":\"tomorrow\",\"status\":\"published\","
                        + "\"platform_options\":{\"tiktok\":{\"privacy_level\":\"FRIENDS\",\"disable_stitch\":false},"
                        + "\"youtube\":{\"privacy_status\":\"secret\"},\"pinterest\":{\"board_id\":\"abc\"},\"myspace\":{}}}";
        int before = FakeUpstreams.BATCHES.get();
        Response response = posting(workspace, Mode.TEST).body(body).post("/posts");
        response.then().statusCode(422).body("error.code", equalTo("validation_failed"));
        List<String> fields = response.path("error.details.errors.field");
        assertThat(fields)
                .contains(
                        "status",
                        "scheduled_at",
                        "account_ids[3]",
                        "account_ids[4]",
                        "text",
                        "media",
                        "platform_options.tiktok.privacy_level",
                        "platform_options.tiktok.disable_stitch",
                        "platform_options.youtube.privacy_status",
                        "platform_options.youtube.made_for_kids",
                        "platform_options.pinterest.board_id",
                        "platform_options.myspace");
        List<String> messages = response.path("error.details.errors.message");
        assertThat(messages)
                .anyMatch(message -> message.contains("TikTok allows at most 2200"))
                .anyMatch(message -> message.contains("Pinterest allows at most 500"));
        assertThat(FakeUpstreams.BATCHES.get()).isEqualTo(before);
        assertThat(FakeUpstreams.reserved(workspace, "test")).isZero();
    }

    @Test
    void anAccountOfAnotherModeIsAFieldError() {
        String live = FakeUpstreams.addAccount(workspace, "live", "linkedin", "live_user", null);
        posting(workspace, Mode.TEST)
                .body("{\"text\":\"Hi\",\"account_ids\":[\"" + live + "\"]}")
                .post("/posts")
                .then()
                .statusCode(422)
                .body("error.code", equalTo("validation_failed"))
                .body("error.details.errors.field", hasItems("account_ids[0]"));
    }

    @Test
    void anAccountThatNeedsReauthorizationIsRefusedWithItsHealthAndReconnectLinkAndNothingIsCharged() {
        String healthy = account("linkedin", null);
        String broken = account("facebook", null);
        String reconnectUrl = "https://herald.example/connect/reconnect/tok_" + broken;
        FakeUpstreams.needsReauthorization(workspace, "test", broken, reconnectUrl);
        int batches = FakeUpstreams.BATCHES.get();
        String scheduledAt = Instant.now()
                .plus(1, ChronoUnit.HOURS)
                .truncatedTo(ChronoUnit.SECONDS)
                .toString();

        posting(workspace, Mode.TEST)
                .body("{\"text\":\"Hi\",\"account_ids\":[\"" + healthy + "\",\"" + broken + "\"],\"scheduled_at\":\""
                        + scheduledAt + "\"}")
                .post("/posts")
                .then()
                .statusCode(422)
                .body("error.code", equalTo("account_reauth_required"))
                .body("error.details.account_id", equalTo(broken))
                .body("error.details.field", equalTo("account_ids[1]"))
                .body("error.details.health", equalTo("reauth_required"))
                .body("error.details.reconnect_url", equalTo(reconnectUrl));

        // Refused before anything was reserved: nothing accepted, nothing charged.
        assertThat(FakeUpstreams.BATCHES.get()).isEqualTo(batches);
        assertThat(FakeUpstreams.reserved(workspace, "test")).isZero();
        // The lookup told accounts-service when the post is due, for its check ahead of that time.
        assertThat(FakeUpstreams.LOOKUPS.get(broken))
                .last()
                .satisfies(lookup -> assertThat(
                                Instant.parse(lookup.get("scheduled_at").asText()))
                        .isEqualTo(Instant.parse(scheduledAt)));
    }

    @Test
    void aDisconnectedAccountIsRefusedAsNeedingReauthorization() {
        String disconnected = account("linkedin", null);
        FakeUpstreams.disconnect(workspace, "test", disconnected);
        posting(workspace, Mode.TEST)
                .body("{\"text\":\"Hi\",\"account_ids\":[\"" + disconnected + "\"]}")
                .post("/posts")
                .then()
                .statusCode(422)
                .body("error.code", equalTo("account_reauth_required"))
                .body("error.details.account_id", equalTo(disconnected))
                .body("error.details.field", equalTo("account_ids[0]"))
                .body("error.details.health", equalTo("disconnected"))
                .body("error.details.reconnect_url", nullValue());
        assertThat(FakeUpstreams.reserved(workspace, "test")).isZero();
    }

    @Test
    void theRequestsOwnFieldErrorsComeBeforeAnAccountThatNeedsReauthorization() {
        String broken = account("pinterest", null);
        FakeUpstreams.needsReauthorization(workspace, "test", broken, "https://herald.example/connect/reconnect/t");
        String unknown = ResourceIds.newId(IdPrefix.ACCOUNT);
        posting(workspace, Mode.TEST)
                .body("{\"text\":\"" + "x".repeat(600) + "\",\"account_ids\":[\"" + broken + "\",\"" + unknown + "\"]}")
                .post("/posts")
                .then()
                .statusCode(422)
                .body("error.code", equalTo("validation_failed"))
                // The broken account is still checked as a target: its platform's rules are reported too.
                .body("error.details.errors.field", hasItems("account_ids[1]", "text", "media"));
    }

    @Test
    void scheduledAtMustBeFiveSecondsToOneYearAhead() {
        String linkedIn = account("linkedin", null);
        for (Instant at : List.of(Instant.now().plusSeconds(2), Instant.now().plus(400, ChronoUnit.DAYS))) {
            posting(workspace, Mode.TEST)
                    .body("{\"text\":\"Hi\",\"account_ids\":[\"" + linkedIn + "\"],\"scheduled_at\":\"" + at + "\"}")
                    .post("/posts")
                    .then()
                    .statusCode(422)
                    .body("error.details.errors[0].field", equalTo("scheduled_at"))
                    .body("error.details.errors[0].code", equalTo("invalid_value"));
        }
        posting(workspace, Mode.TEST)
                .body("{\"text\":\"Hi\",\"account_ids\":[\"" + linkedIn
                        + "\"],\"scheduled_at\":\"2026-12-01T09:00:00\"}")
                .post("/posts")
                .then()
                .statusCode(422)
                .body("error.details.errors[0].code", equalTo("invalid_format"));
    }

    @Test
    void anIdenticalReplayAnswersTheOriginalBodyFreeOfCharge() {
        String linkedIn = account("linkedin", null);
        String key = UUID.randomUUID().toString();
        String body = linkedInPost(linkedIn, "Once");
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
        String linkedIn = account("linkedin", null);
        String key = UUID.randomUUID().toString();
        String first = as(workspace, Mode.TEST)
                .header("Idempotency-Key", key)
                .body(linkedInPost(linkedIn, "Once"))
                .post("/posts")
                .then()
                .statusCode(202)
                .extract()
                .asString();
        FakeUpstreams.disconnect(workspace, "test", linkedIn);

        Response replay = as(workspace, Mode.TEST)
                .header("Idempotency-Key", key)
                .body(linkedInPost(linkedIn, "Once"))
                .post("/posts");
        replay.then().statusCode(200).header("Idempotency-Replayed", "true");
        assertThat(replay.asString()).isEqualTo(first);
        as(workspace, Mode.TEST)
                .header("Idempotency-Key", key)
                .body(linkedInPost(linkedIn, "Twice"))
                .post("/posts")
                .then()
                .statusCode(422)
                .body("error.code", equalTo("idempotency_key_reused"));
        // A new key gets today's answer: the account must be reconnected first.
        as(workspace, Mode.TEST)
                .header("Idempotency-Key", UUID.randomUUID().toString())
                .body(linkedInPost(linkedIn, "Once"))
                .post("/posts")
                .then()
                .statusCode(422)
                .body("error.code", equalTo("account_reauth_required"));
        assertThat(FakeUpstreams.reserved(workspace, "test")).isEqualTo(1);
    }

    @Test
    void aDifferentRequestUnderAUsedKeyIsRefused() {
        String linkedIn = account("linkedin", null);
        String key = UUID.randomUUID().toString();
        as(workspace, Mode.TEST)
                .header("Idempotency-Key", key)
                .body(linkedInPost(linkedIn, "One"))
                .post("/posts")
                .then()
                .statusCode(202);
        as(workspace, Mode.TEST)
                .header("Idempotency-Key", key)
                .body(linkedInPost(linkedIn, "Two"))
                .post("/posts")
                .then()
                .statusCode(422)
                .body("error.code", equalTo("idempotency_key_reused"));
        // Keys belong to one workspace and mode: the same key elsewhere is a new request.
        String other = FakeUpstreams.addAccount(workspace, "live", "linkedin", "live_user", null);
        as(workspace, Mode.LIVE)
                .header("Idempotency-Key", key)
                .body(linkedInPost(other, "One"))
                .post("/posts")
                .then()
                .statusCode(202);
    }

    @Test
    void theIdempotencyKeyIsRequiredAndBounded() {
        String body = linkedInPost(account("linkedin", null), "Hi");
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
        String linkedIn = account("linkedin", null);
        String key = UUID.randomUUID().toString();
        String body = linkedInPost(linkedIn, "Race");
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
        String linkedIn = account("linkedin", null);
        FakeUpstreams.setPublicationLimit(workspace, "test", 0);
        String key = UUID.randomUUID().toString();
        as(workspace, Mode.TEST)
                .header("Idempotency-Key", key)
                .body(linkedInPost(linkedIn, "Hi"))
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
                .body(linkedInPost(linkedIn, "Hi"))
                .post("/posts")
                .then()
                .statusCode(202);
    }

    @Test
    void aLivePostOverAccountCapacityIsRefused() {
        String live = FakeUpstreams.addAccount(workspace, "live", "linkedin", "live_user", null);
        FakeUpstreams.OVER_CAPACITY.add(workspace + ":live");
        posting(workspace, Mode.LIVE)
                .body(linkedInPost(live, "Hi"))
                .post("/posts")
                .then()
                .statusCode(409)
                .header(LimitRefusal.HEADER, "true")
                .body("error.code", equalTo("account_capacity_exceeded"))
                .body("error.details.limit", equalTo(2))
                .body("error.details.connected", equalTo(3));
    }

    @Test
    void aQueuedScheduledPostCanBeCanceledOnce() throws Exception {
        String profile = ResourceIds.newId(IdPrefix.PROFILE);
        String linkedIn = account("linkedin", profile);
        String at = Instant.now()
                .plus(1, ChronoUnit.HOURS)
                .truncatedTo(ChronoUnit.SECONDS)
                .toString();
        String id = posting(workspace, Mode.TEST)
                .body("{\"text\":\"Later\",\"account_ids\":[\"" + linkedIn + "\"],\"scheduled_at\":\"" + at + "\"}")
                .post("/posts")
                .then()
                .statusCode(202)
                .body("data.scheduled_at", equalTo(at))
                .extract()
                .path("data.id");
        Thread.sleep(500);
        as(workspace, Mode.TEST).get("/posts/" + id).then().body("data.status", equalTo("queued"));

        assertThat(FakeUpstreams.holders(profile)).containsExactly(id);
        as(workspace, Mode.TEST)
                .delete("/posts/" + id)
                .then()
                .statusCode(200)
                .body("data.status", equalTo("canceled"))
                .body("data.targets[0].status", equalTo("canceled"));
        // Given back before the cancel answered: the profile can be deleted at once, not a release-job run later.
        assertThat(FakeUpstreams.holders(profile)).isEmpty();
        as(workspace, Mode.TEST)
                .delete("/posts/" + id)
                .then()
                .statusCode(409)
                .body("error.code", equalTo("post_not_cancelable"))
                .body("error.details.status", equalTo("canceled"));
    }

    @Test
    void anImmediatePostIsHandedToDeliveryAndCannotBeCanceled() throws Exception {
        String id = posting(workspace, Mode.TEST)
                .body(linkedInPost(account("linkedin", null), "Now"))
                .post("/posts")
                .then()
                .statusCode(202)
                .extract()
                .path("data.id");
        long deadline = System.currentTimeMillis() + 5_000;
        String status = "queued";
        while (status.equals("queued") && System.currentTimeMillis() < deadline) {
            Thread.sleep(50);
            status = as(workspace, Mode.TEST)
                    .get("/posts/" + id)
                    .then()
                    .extract()
                    .path("data.status");
        }
        assertThat(status).isEqualTo("publishing");
        as(workspace, Mode.TEST)
                .delete("/posts/" + id)
                .then()
                .statusCode(409)
                .body("error.code", equalTo("post_not_cancelable"));
    }

    @Test
    void otherTenantsPostsAreNotFound() {
        String id = posting(workspace, Mode.TEST)
                .body(linkedInPost(account("linkedin", null), "Mine"))
                .post("/posts")
                .then()
                .statusCode(202)
                .extract()
                .path("data.id");
        as(ResourceIds.newId(IdPrefix.WORKSPACE), Mode.TEST)
                .get("/posts/" + id)
                .then()
                .statusCode(404)
                .body("error.code", equalTo("not_found"));
        as(workspace, Mode.LIVE).get("/posts/" + id).then().statusCode(404);
        as(workspace, Mode.LIVE).delete("/posts/" + id).then().statusCode(404);
    }

    @Test
    void listsFilterByStatusPlatformTextAccountAndProfileWithCursorsBoundToFilters() {
        String profile = ResourceIds.newId(IdPrefix.PROFILE);
        String linkedIn = account("linkedin", profile);
        String facebook = account("facebook", null);
        for (int i = 0; i < 3; i++) {
            posting(workspace, Mode.TEST)
                    .body(linkedInPost(linkedIn, "Launch 100% day " + i))
                    .post("/posts")
                    .then()
                    .statusCode(202);
        }
        posting(workspace, Mode.TEST)
                .body(linkedInPost(facebook, "Other"))
                .post("/posts")
                .then()
                .statusCode(202);

        as(workspace, Mode.TEST)
                .get("/posts?platform=facebook")
                .then()
                .statusCode(200)
                .body("data", hasSize(1))
                .body("data[0].text", equalTo("Other"));
        as(workspace, Mode.TEST).queryParam("q", "100%").get("/posts").then().body("data", hasSize(3));
        as(workspace, Mode.TEST).queryParam("q", "1_0").get("/posts").then().body("data", hasSize(0));
        as(workspace, Mode.TEST).get("/posts?account_id=" + facebook).then().body("data", hasSize(1));
        as(workspace, Mode.TEST).get("/posts?profile_id=" + profile).then().body("data", hasSize(3));
        String cursor = as(workspace, Mode.TEST)
                .get("/posts?platform=linkedin&limit=2")
                .then()
                .statusCode(200)
                .body("data", hasSize(2))
                .body("meta.has_more", equalTo(true))
                .body("data[0].text", equalTo("Launch 100% day 2"))
                .extract()
                .path("meta.next_cursor");
        as(workspace, Mode.TEST)
                .get("/posts?platform=linkedin&limit=2&cursor=" + cursor)
                .then()
                .statusCode(200)
                .body("data", hasSize(1))
                .body("meta.has_more", equalTo(false))
                .body("meta.next_cursor", nullValue());
        as(workspace, Mode.TEST)
                .get("/posts?platform=facebook&cursor=" + cursor)
                .then()
                .statusCode(400)
                .body("error.code", equalTo("invalid_cursor"));
        as(workspace, Mode.TEST)
                .get("/posts?status=done")
                .then()
                .statusCode(400)
                .body("error.details.parameter", equalTo("status"));
        as(workspace, Mode.TEST).get("/posts?profile_id=nope").then().statusCode(400);
        as(workspace, Mode.TEST)
                .get("/posts?limit=")
                .then()
                .statusCode(400)
                .body("error.details.parameter", equalTo("limit"));
        as(workspace, Mode.TEST)
                .get("/posts?cursor=")
                .then()
                .statusCode(400)
                .body("error.details.parameter", equalTo("cursor"));
    }

    @Test
    void aFenceCountsPendingPostsAndRefusesNewOnesUntilLifted() {
        String linkedIn = account("linkedin", null);
        String at = Instant.now().plus(1, ChronoUnit.HOURS).toString();
        String body = "{\"text\":\"Later\",\"account_ids\":[\"" + linkedIn + "\"],\"scheduled_at\":\"" + at + "\"}";
        posting(workspace, Mode.TEST).body(body).post("/posts").then().statusCode(202);
        String fence = as(workspace, Mode.TEST)
                .post("/internal/accounts/" + linkedIn + "/fences")
                .then()
                .statusCode(200)
                .body("data.account_id", equalTo(linkedIn))
                .body("data.pending_posts", equalTo(1))
                .body("data.expires_at", notNullValue())
                .extract()
                .path("data.fence_id");
        as(workspace, Mode.LIVE)
                .post("/internal/accounts/" + linkedIn + "/fences")
                .then()
                .statusCode(200)
                .body("data.pending_posts", equalTo(0));

        // While the account is being moved, a post to it is refused as retryable and keeps nothing it took.
        posting(workspace, Mode.TEST)
                .body(body)
                .post("/posts")
                .then()
                .statusCode(409)
                .body("error.code", equalTo("conflict"))
                .body("error.details.reason", equalTo("account_being_moved"))
                .body("error.details.account_ids[0]", equalTo(linkedIn));
        assertThat(FakeUpstreams.RESERVATIONS.entrySet().stream()
                        .filter(reservation -> reservation.getKey().endsWith("-" + linkedIn))
                        .map(Map.Entry::getValue))
                .containsExactlyInAnyOrder("reserved", "released");

        as(workspace, Mode.TEST)
                .delete("/internal/accounts/" + linkedIn + "/fences/" + fence)
                .then()
                .statusCode(204);
        as(workspace, Mode.TEST)
                .delete("/internal/accounts/" + linkedIn + "/fences/" + fence)
                .then()
                .statusCode(204);
    }
}
