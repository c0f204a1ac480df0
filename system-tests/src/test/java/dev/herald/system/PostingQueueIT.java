package dev.herald.system;

import static dev.herald.system.RunningSuite.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Posting queues through the gateway (issue 38): a profile's weekly slots ({@code PUT /profiles/{id}/queue}) and
 * posts with {@code "scheduled_at": "next_slot"}, which take the profile's free slots in order, one post per slot,
 * also when 100 of them arrive at once; a canceled post's slot is taken by the next post.
 */
class PostingQueueIT {
    private static final String DAYS =
            "[\"monday\",\"tuesday\",\"wednesday\",\"thursday\",\"friday\",\"saturday\",\"sunday\"]";

    /** Every hour of every day in Berlin: 168 slots. */
    private static String hourlyQueue() {
        List<String> slots = new ArrayList<>();
        for (String day : DAYS.replaceAll("[\\[\\]\"]", "").split(",")) {
            for (int hour = 0; hour < 24; hour++) {
                slots.add("{\"day\":\"" + day + "\",\"time\":\"%02d:00\"}".formatted(hour));
            }
        }
        return "{\"timezone\":\"Europe/Berlin\",\"slots\":[" + String.join(",", slots) + "]}";
    }

    private static String profile(String key, String name) {
        return as(key).contentType(ContentType.JSON)
                .body("{\"name\":\"" + name + "\"}")
                .post("/profiles")
                .then()
                .statusCode(201)
                .extract()
                .path("data.id");
    }

    private static String account(String key, String profileId, String username) {
        String body = "{\"platform\":\"linkedin\",\"username\":\"" + username + "\""
                + (profileId == null ? "" : ",\"profile_id\":\"" + profileId + "\"") + "}";
        io.restassured.response.Response created =
                as(key).contentType(ContentType.JSON).body(body).post("/accounts");
        if (created.statusCode() == 503) {
            // The API's transient answer on a loaded machine, which clients retry (see PostsPipelineIT.account).
            created = as(key).contentType(ContentType.JSON).body(body).post("/accounts");
        }
        return created.then().statusCode(201).extract().path("data.id");
    }

    private static void hourly(String key, String profileId) {
        as(key).contentType(ContentType.JSON)
                .body(hourlyQueue())
                .put("/profiles/" + profileId + "/queue")
                .then()
                .statusCode(200)
                .body("data.slots", hasSize(168));
    }

    private static String nextSlot(String... accounts) {
        return "{\"text\":\"Queued\",\"account_ids\":[\"" + String.join("\",\"", accounts)
                + "\"],\"scheduled_at\":\"next_slot\"}";
    }

    /**
     * A post accepted, retried with its Idempotency-Key while the API answers 503, as a client should: on a machine
     * running several suites, an internal call may time out and open a circuit for a few seconds.
     */
    private static JsonPath post(String key, String body) throws InterruptedException {
        String idempotencyKey = UUID.randomUUID().toString();
        io.restassured.response.Response answer = PostsPipelineIT.post(key, idempotencyKey, body);
        for (int retry = 0; answer.statusCode() == 503 && retry < 10; retry++) {
            Thread.sleep(1000);
            answer = PostsPipelineIT.post(key, idempotencyKey, body);
        }
        return answer.then()
                .statusCode(org.hamcrest.Matchers.oneOf(200, 202))
                .extract()
                .jsonPath();
    }

    private static Instant slotOf(JsonPath answer) {
        return Instant.parse(answer.getString("data.scheduled_at"));
    }

    @Test
    void aQueueIsSetReadAndDeletedWithEveryProblemNamed() {
        String key = PostsPipelineIT.testKey("Queue API");
        String profile = profile(key, "Queue API");

        as(key).contentType(ContentType.JSON)
                .body("{\"timezone\":\"+02:00\",\"slots\":[{\"day\":\"monday\",\"time\":\"09:00\"},"
                        + "{\"day\":\"monday\",\"time\":\"9:00\"},{\"day\":\"monday\",\"time\":\"09:00\"}]}")
                .put("/profiles/" + profile + "/queue")
                .then()
                .statusCode(422)
                .body("error.code", equalTo("validation_failed"))
                .body(
                        "error.details.errors.field",
                        org.hamcrest.Matchers.contains("timezone", "slots[1].time", "slots[2]"));
        as(key).get("/profiles/" + profile + "/queue").then().statusCode(404).body("error.code", equalTo("not_found"));

        as(key).contentType(ContentType.JSON)
                .body("{\"timezone\":\"America/New_York\",\"slots\":[{\"day\":\"friday\",\"time\":\"17:45\"},"
                        + "{\"day\":\"monday\",\"time\":\"09:00\"}]}")
                .put("/profiles/" + profile + "/queue")
                .then()
                .statusCode(200)
                .body("data.profile_id", equalTo(profile))
                .body("data.slots.day", org.hamcrest.Matchers.contains("monday", "friday"));
        as(key).get("/profiles/" + profile + "/queue")
                .then()
                .statusCode(200)
                .body("data.timezone", equalTo("America/New_York"));
        as(key).delete("/profiles/" + profile + "/queue")
                .then()
                .statusCode(200)
                .body("data.object", equalTo("queue"))
                .body("data.deleted", equalTo(true));
        as(key).get("/profiles/" + profile + "/queue").then().statusCode(404);
    }

    @Test
    void nextSlotPostsTakeConsecutiveSlotsAndACanceledPostsSlotIsTakenNext() throws Exception {
        String key = PostsPipelineIT.testKey("Queue order");
        String profile = profile(key, "Queue order");
        hourly(key, profile);
        String account = account(key, profile, "queue_order");

        Instant proposed = Instant.parse(as(key).contentType(ContentType.JSON)
                .body(nextSlot(account))
                .post("/posts/validate")
                .then()
                .statusCode(200)
                .body("data.valid", equalTo(true))
                .extract()
                .path("data.scheduled_at"));
        JsonPath first = post(key, nextSlot(account));
        JsonPath second = post(key, nextSlot(account));
        JsonPath third = post(key, nextSlot(account));

        assertThat(slotOf(first)).isEqualTo(proposed).isEqualTo(slotOf(first).truncatedTo(ChronoUnit.HOURS));
        assertThat(slotOf(second)).isEqualTo(slotOf(first).plus(Duration.ofHours(1)));
        assertThat(slotOf(third)).isEqualTo(slotOf(first).plus(Duration.ofHours(2)));
        as(key).get("/posts/" + second.getString("data.id"))
                .then()
                .statusCode(200)
                .body("data.scheduled_at", equalTo(second.getString("data.scheduled_at")));

        as(key).delete("/posts/" + second.getString("data.id"))
                .then()
                .statusCode(200)
                .body("data.status", equalTo("canceled"));

        assertThat(slotOf(post(key, nextSlot(account)))).isEqualTo(slotOf(second));
        assertThat(slotOf(post(key, nextSlot(account)))).isEqualTo(slotOf(third).plus(Duration.ofHours(1)));
    }

    @Test
    void aHundredConcurrentNextSlotPostsTakeAHundredDistinctSlots() throws Exception {
        String key = PostsPipelineIT.testKey("Queue crowd");
        String profile = profile(key, "Queue crowd");
        hourly(key, profile);
        String account = account(key, profile, "queue_crowd");
        int posts = 100;

        ExecutorService clients = Executors.newFixedThreadPool(posts);
        Set<Instant> slots = new TreeSet<>();
        try {
            List<Future<Instant>> answers = new ArrayList<>();
            for (int i = 0; i < posts; i++) {
                answers.add(clients.submit(() -> slotOf(post(key, nextSlot(account)))));
            }
            for (Future<Instant> answer : answers) {
                slots.add(answer.get(5, TimeUnit.MINUTES));
            }
        } finally {
            clients.shutdownNow();
        }

        assertThat(slots).hasSize(posts);
        // The 100 hours from the first: no post skipped a slot it could have had.
        Instant first = slots.iterator().next();
        assertThat(slots).last().isEqualTo(first.plus(Duration.ofHours(posts - 1)));
    }

    @Test
    void accountsOfTwoProfilesOrNoneAndAProfileWithoutQueueAreRefused() {
        String key = PostsPipelineIT.testKey("Queue refusals");
        String queued = profile(key, "Queued");
        hourly(key, queued);
        String unqueued = profile(key, "Unqueued");
        String inQueued = account(key, queued, "queue_in");
        String inUnqueued = account(key, unqueued, "queue_other");
        String inNone = account(key, null, "queue_none");

        PostsPipelineIT.post(key, UUID.randomUUID().toString(), nextSlot(inQueued, inUnqueued))
                .then()
                .statusCode(422)
                .body("error.code", equalTo("validation_failed"))
                .body("error.details.errors[0].field", equalTo("scheduled_at"))
                .body("error.details.errors[0].code", equalTo("invalid_value"))
                .body("error.details.errors[0].message", containsString("several profiles"));
        PostsPipelineIT.post(key, UUID.randomUUID().toString(), nextSlot(inNone))
                .then()
                .statusCode(422)
                .body("error.details.errors[0].field", equalTo("scheduled_at"))
                .body("error.details.errors[0].message", containsString("belongs to no profile"));
        PostsPipelineIT.post(key, UUID.randomUUID().toString(), nextSlot(inUnqueued))
                .then()
                .statusCode(422)
                .body("error.details.errors[0].field", equalTo("scheduled_at"))
                .body("error.details.errors[0].message", containsString("has no posting queue"));
        as(key).get("/posts").then().statusCode(200).body("data", hasSize(0));
    }
}
