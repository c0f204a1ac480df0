package dev.herald.system;

import static dev.herald.system.RunningSuite.as;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Decision 224: {@code PATCH /accounts/{id}} to a new profile racing {@code POST /posts} to the account, the second
 * audit's race (40 tries, the requests 0-30 ms apart; {@code -Dherald.race.tries} runs more). The spec refuses the
 * PATCH while posts are pending and keeps a finished post's profile, so a try where both succeed must have a post that
 * carries the new profile, unless the post was final before the account moved: one carrying the old one is a window.
 * The account is a {@code slow_} sandbox account (publishing takes 3 s), so a post accepted before the move is still
 * pending when the PATCH's fence counts it: with an account that publishes at once, a PATCH that lags (its path is
 * cold in the first tries) can meet a post already published, which rightly keeps its profile; this test counted that
 * as a window (the one failure CI saw, try 3, fits it). Checked to fail with the fence disabled (the acceptance
 * statement's fence check made to answer false: 30 windows in 40 tries, 39 with both 200 and 202).
 */
class AccountReassignmentRaceIT {
    private static final int TRIES = Integer.getInteger("herald.race.tries", 40);
    private static final int MAX_APART_MILLIS = 30;

    private record Outcome(int patchStatus, String movedAt, int postStatus, String postId, boolean refusedAsMoving) {}

    @Test
    void aPostRacingTheMoveOfItsAccountNeverCarriesTheProfileItLeft() throws Exception {
        ExecutorService pair = Executors.newFixedThreadPool(2);
        List<String> windows = new ArrayList<>();
        int bothSucceeded = 0;
        int patchRefused = 0;
        int postRefused = 0;
        int finalBeforeMove = 0;
        try {
            for (int i = 0; i < TRIES; i++) {
                String key = RunningSuite.newKey(RunningSuite.newWorkspace("Reassignment race " + i), "test");
                String oldProfile = profile(key, "Old " + i);
                String newProfile = profile(key, "New " + i);
                String account = account(key, oldProfile);
                long apart = i % (MAX_APART_MILLIS + 1);
                String idempotencyKey = UUID.randomUUID().toString();
                Future<Response> post = pair.submit(() -> post(key, account, idempotencyKey));
                Future<Response> patch = pair.submit(delayed(
                        apart,
                        () -> as(key).contentType(ContentType.JSON)
                                .body("{\"profile_id\":\"" + newProfile + "\"}")
                                .patch("/accounts/" + account)));
                Outcome outcome = outcome(patch.get(30, TimeUnit.SECONDS), post.get(30, TimeUnit.SECONDS));
                if (outcome.refusedAsMoving()) {
                    postRefused++;
                    // The client retries as the answer says; the retry reads the account again.
                    Response retried = retried(key, account, idempotencyKey);
                    assertThat(retried.statusCode())
                            .as("retried post of try %d", i)
                            .isEqualTo(202);
                    outcome = new Outcome(outcome.patchStatus(), outcome.movedAt(), 202, retried.path("data.id"), true);
                }
                if (outcome.patchStatus() == 409) {
                    patchRefused++;
                    continue;
                }
                assertThat(outcome.patchStatus()).as("PATCH of try %d", i).isEqualTo(200);
                bothSucceeded++;
                JsonPath carried = as(key).get("/posts/" + outcome.postId())
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath();
                if (newProfile.equals(carried.getString("data.targets[0].profile_id"))) {
                    continue;
                }
                String completedAt = carried.getString("data.targets[0].completed_at");
                if (completedAt != null && Instant.parse(completedAt).isBefore(Instant.parse(outcome.movedAt()))) {
                    finalBeforeMove++;
                } else {
                    windows.add(
                            "try %d (%d ms apart%s): the post carries the profile the account left; its target %s, the account moved at %s"
                                    .formatted(
                                            i,
                                            apart,
                                            outcome.refusedAsMoving() ? ", retried" : "",
                                            completedAt == null ? "is pending" : "completed at " + completedAt,
                                            outcome.movedAt()));
                }
            }
        } finally {
            pair.shutdownNow();
        }
        System.out.printf(
                "AccountReassignmentRaceIT: %d tries: %d PATCH 200 with a 202 post, %d PATCH refused, %d posts refused as"
                        + " the account moved, %d posts final before the move, %d windows%n",
                TRIES, bothSucceeded, patchRefused, postRefused, finalBeforeMove, windows.size());
        assertThat(windows)
                .as(
                        "tries where the PATCH answered 200 and the post kept the old profile "
                                + "(%d both succeeded, %d PATCH refused, %d posts refused as the account moved)",
                        bothSucceeded, patchRefused, postRefused)
                .isEmpty();
    }

    private static Outcome outcome(Response patch, Response post) {
        int postStatus = post.statusCode();
        boolean refusedAsMoving = postStatus == 409 && "account_being_moved".equals(post.path("error.details.reason"));
        if (postStatus != 202 && !refusedAsMoving) {
            throw new AssertionError("POST /posts answered " + postStatus + ": " + post.asString());
        }
        if (patch.statusCode() == 409) {
            assertThat((String) patch.path("error.code")).isEqualTo("account_has_pending_posts");
        }
        return new Outcome(
                patch.statusCode(),
                patch.statusCode() == 200 ? patch.path("data.updated_at") : null,
                postStatus,
                refusedAsMoving ? null : post.path("data.id"),
                refusedAsMoving);
    }

    private static Response post(String key, String account, String idempotencyKey) {
        return as(key).contentType(ContentType.JSON)
                .header("Idempotency-Key", idempotencyKey)
                .body("{\"text\":\"Racing the move\",\"account_ids\":[\"" + account + "\"]}")
                .post("/posts");
    }

    /** Retried every second while the fence (and the clock-skew margin after its lift) still refuses it. */
    private static Response retried(String key, String account, String idempotencyKey) throws InterruptedException {
        Response response = null;
        for (int attempt = 0; attempt < 10; attempt++) {
            Thread.sleep(1000);
            response = post(key, account, idempotencyKey);
            if (response.statusCode() != 409) {
                return response;
            }
        }
        return response;
    }

    private static Callable<Response> delayed(long millis, Callable<Response> send) {
        return () -> {
            Thread.sleep(millis);
            return send.call();
        };
    }

    private static String profile(String key, String name) {
        return SecuritySupport.retrying503(() -> as(key).contentType(ContentType.JSON)
                        .body("{\"name\":\"" + name + "\"}")
                        .post("/profiles"))
                .then()
                .statusCode(201)
                .extract()
                .path("data.id");
    }

    private static String account(String key, String profile) {
        return SecuritySupport.retrying503(() -> as(key).contentType(ContentType.JSON)
                        .body("{\"platform\":\"linkedin\",\"username\":\"slow_mover\",\"profile_id\":\"" + profile
                                + "\"}")
                        .post("/accounts"))
                .then()
                .statusCode(201)
                .extract()
                .path("data.id");
    }
}
