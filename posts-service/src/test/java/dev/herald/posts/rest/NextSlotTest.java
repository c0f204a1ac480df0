package dev.herald.posts.rest;

import static dev.herald.posts.support.PostsTestSupport.as;
import static dev.herald.posts.support.PostsTestSupport.posting;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import dev.herald.common.auth.Mode;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.common.wire.PostQueue;
import dev.herald.posts.messaging.AbandonedAcceptanceJob;
import dev.herald.posts.support.FakeUpstreams;
import dev.herald.posts.support.PostsTestSupport;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code "scheduled_at": "next_slot"}: the profile's next free queue slot, one post per slot. */
@QuarkusTest
@WithTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = PostsTestSupport.DATABASE),
        scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakeUpstreams.class, scope = TestResourceScope.MATCHING_RESOURCES)
class NextSlotTest {
    @Inject
    AbandonedAcceptanceJob abandonedAcceptances;

    private String workspace;
    private String profile;
    private String account;

    @BeforeEach
    void newProfileWithHourlySlots() {
        FakeUpstreams.ensureStarted();
        workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
        profile = ResourceIds.newId(IdPrefix.PROFILE);
        account = account(profile);
        FakeUpstreams.setQueue(workspace, "test", profile, "Europe/Berlin", hourly());
    }

    @AfterEach
    void noDelay() {
        FakeUpstreams.reserveDelayMillis = 0;
    }

    private String account(String profileId) {
        return FakeUpstreams.addAccount(
                workspace,
                "test",
                "linkedin",
                "user_" + UUID.randomUUID().toString().substring(0, 6),
                profileId);
    }

    /** Every hour of the week: 168 slots. */
    private static String[] hourly() {
        List<String> slots = new ArrayList<>();
        for (String day : PostQueue.DAYS) {
            for (int hour = 0; hour < 24; hour++) {
                slots.add(day + " %02d:00".formatted(hour));
            }
        }
        return slots.toArray(String[]::new);
    }

    private static String body(String... accounts) {
        return "{\"text\":\"Queued\",\"account_ids\":[\"" + String.join("\",\"", accounts)
                + "\"],\"scheduled_at\":\"next_slot\"}";
    }

    private Instant post(String... accounts) {
        return Instant.parse(posting(workspace, Mode.TEST)
                .body(body(accounts))
                .post("/posts")
                .then()
                .statusCode(202)
                .body("data.status", equalTo("queued"))
                .extract()
                .path("data.scheduled_at"));
    }

    @Test
    void nextSlotPostsTakeTheEarliestFreeSlotsInOrder() {
        Instant before = Instant.now();

        Instant first = post(account);
        Instant second = post(account);
        Instant third = post(account);

        // The first whole hour at least 5 s ahead, then the hours after it.
        assertThat(first).isAfter(before.plusSeconds(5)).isBeforeOrEqualTo(before.plus(Duration.ofSeconds(3605)));
        assertThat(first).isEqualTo(first.truncatedTo(ChronoUnit.HOURS));
        assertThat(second).isEqualTo(first.plus(Duration.ofHours(1)));
        assertThat(third).isEqualTo(first.plus(Duration.ofHours(2)));
    }

    @Test
    void validateReportsTheSlotWithoutTakingIt() {
        Instant proposed = Instant.parse(as(workspace, Mode.TEST)
                .body(body(account))
                .post("/posts/validate")
                .then()
                .statusCode(200)
                .body("data.valid", equalTo(true))
                .extract()
                .path("data.scheduled_at"));
        as(workspace, Mode.TEST)
                .body(body(account))
                .post("/posts/validate")
                .then()
                .body("data.scheduled_at", equalTo(proposed.toString()));

        assertThat(post(account)).isEqualTo(proposed);
        as(workspace, Mode.TEST)
                .body(body(account))
                .post("/posts/validate")
                .then()
                .body(
                        "data.scheduled_at",
                        equalTo(proposed.plus(Duration.ofHours(1)).toString()));
    }

    @Test
    void accountsOutsideOneProfileOrAProfileWithoutQueueAreRefused() throws Exception {
        String unassigned = account(null);
        String otherProfile = ResourceIds.newId(IdPrefix.PROFILE);
        String elsewhere = account(otherProfile);

        posting(workspace, Mode.TEST)
                .body(body(account, elsewhere))
                .post("/posts")
                .then()
                .statusCode(422)
                .body("error.code", equalTo("validation_failed"))
                .body("error.details.errors", hasSize(1))
                .body("error.details.errors[0].field", equalTo("scheduled_at"))
                .body("error.details.errors[0].code", equalTo("invalid_value"))
                .body("error.details.errors[0].message", containsString("several profiles"));
        posting(workspace, Mode.TEST)
                .body(body(unassigned))
                .post("/posts")
                .then()
                .statusCode(422)
                .body("error.details.errors[0].field", equalTo("scheduled_at"))
                .body("error.details.errors[0].message", containsString(unassigned + " belongs to no profile"));
        posting(workspace, Mode.TEST)
                .body(body(elsewhere))
                .post("/posts")
                .then()
                .statusCode(422)
                .body("error.details.errors[0].field", equalTo("scheduled_at"))
                .body("error.details.errors[0].message", containsString("has no posting queue"));
        // The dry run says the same, as a problem of the post.
        as(workspace, Mode.TEST)
                .body(body(elsewhere))
                .post("/posts/validate")
                .then()
                .statusCode(200)
                .body("data.valid", equalTo(false))
                .body("data.problems[0].field", equalTo("scheduled_at"))
                .body("data.scheduled_at", equalTo(null));
        assertThat(PostsTestSupport.count("select count(*) from posts where workspace_id = ?", workspace))
                .isZero();
        assertThat(FakeUpstreams.reserved(workspace, "test")).isZero();
    }

    @Test
    void anythingButATimeOrNextSlotIsRefused() {
        posting(workspace, Mode.TEST)
                .body("{\"text\":\"x\",\"account_ids\":[\"" + account + "\"],\"scheduled_at\":\"next_slot_please\"}")
                .post("/posts")
                .then()
                .statusCode(422)
                .body("error.details.errors[0].field", equalTo("scheduled_at"))
                .body("error.details.errors[0].code", equalTo("invalid_format"))
                .body("error.details.errors[0].message", containsString("next_slot"));
    }

    @Test
    void cancelingAPostFreesItsSlotForTheNextPost() {
        io.restassured.path.json.JsonPath canceled = posting(workspace, Mode.TEST)
                .body(body(account))
                .post("/posts")
                .then()
                .statusCode(202)
                .extract()
                .jsonPath();
        Instant first = Instant.parse(canceled.getString("data.scheduled_at"));
        Instant second = post(account);

        as(workspace, Mode.TEST)
                .delete("/posts/" + canceled.getString("data.id"))
                .then()
                .statusCode(200);

        assertThat(post(account)).isEqualTo(first);
        assertThat(post(account)).isEqualTo(second.plus(Duration.ofHours(1)));
    }

    @Test
    void aReplayKeepsItsSlot() throws Exception {
        String key = UUID.randomUUID().toString();
        String slot = as(workspace, Mode.TEST)
                .header("Idempotency-Key", key)
                .body(body(account))
                .post("/posts")
                .then()
                .statusCode(202)
                .extract()
                .path("data.scheduled_at");

        as(workspace, Mode.TEST)
                .header("Idempotency-Key", key)
                .body(body(account))
                .post("/posts")
                .then()
                .statusCode(200)
                .body("data.scheduled_at", equalTo(slot));
        assertThat(PostsTestSupport.count("select count(*) from post_slots where workspace_id = ?", workspace))
                .isEqualTo(1);
        assertThat(post(account)).isEqualTo(Instant.parse(slot).plus(Duration.ofHours(1)));
    }

    @Test
    void concurrentNextSlotPostsTakeDistinctSlots() throws Exception {
        int posts = 40;
        ExecutorService pool = Executors.newFixedThreadPool(posts);
        try {
            List<Future<Instant>> answers = new ArrayList<>();
            for (int i = 0; i < posts; i++) {
                answers.add(pool.submit(() -> post(account)));
            }
            Set<Instant> slots = new HashSet<>();
            for (Future<Instant> answer : answers) {
                slots.add(answer.get(120, TimeUnit.SECONDS));
            }
            assertThat(slots).hasSize(posts);
            // Consecutive hours: nobody skipped a slot it could have had.
            Instant first = slots.stream().min(Instant::compareTo).orElseThrow();
            assertThat(slots.stream().max(Instant::compareTo).orElseThrow())
                    .isEqualTo(first.plus(Duration.ofHours(posts - 1)));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void anAbandonedAcceptanceFreesItsSlot() throws Exception {
        FakeUpstreams.reserveDelayMillis = 3000;
        CompletableFuture<Integer> answer = CompletableFuture.supplyAsync(() -> posting(workspace, Mode.TEST)
                .body(body(account))
                .post("/posts")
                .then()
                .extract()
                .statusCode());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (PostsTestSupport.count("select count(*) from post_slots where workspace_id = ?", workspace) == 0) {
            assertThat(System.nanoTime()).isLessThan(deadline);
            Thread.sleep(20);
        }

        abandonedAcceptances
                .giveBackAbandoned(Instant.now().plusSeconds(1))
                .await()
                .atMost(Duration.ofSeconds(30));

        assertThat(PostsTestSupport.count("select count(*) from post_slots where workspace_id = ?", workspace))
                .isZero();
        assertThat(answer.get()).isEqualTo(409);
        assertThat(PostsTestSupport.count("select count(*) from post_slots where workspace_id = ?", workspace))
                .isZero();
    }
}
