package dev.herald.posts.messaging;

import static dev.herald.posts.support.PostsTestSupport.as;
import static dev.herald.posts.support.PostsTestSupport.posting;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

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
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Recurring posts: the series the first post starts, the copies {@link SeriesCopyJob} creates, their cancellation.
 *
 * <p>About 330 lines: a series' life cycle from first post to cancellation, whose cases share the series set-up.
 */
@QuarkusTest
@WithTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = PostsTestSupport.DATABASE),
        scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakeUpstreams.class, scope = TestResourceScope.MATCHING_RESOURCES)
class SeriesCopyJobTest {
    @Inject
    SeriesCopyJob job;

    private String workspace;
    private String profile;
    private String account;

    @BeforeEach
    void newWorkspace() {
        FakeUpstreams.ensureStarted();
        workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
        profile = ResourceIds.newId(IdPrefix.PROFILE);
        account = FakeUpstreams.addAccount(
                workspace,
                "test",
                "linkedin",
                "user_" + UUID.randomUUID().toString().substring(0, 6),
                profile);
    }

    /** A post of {@code text} now (no {@code scheduledAt}) or later, repeating as {@code repeat} says; its answer. */
    private JsonPath post(String text, String scheduledAt, String repeat) {
        return posting(workspace, Mode.TEST)
                .body("{\"text\":\"" + text + "\",\"account_ids\":[\"" + account + "\"]"
                        + (scheduledAt == null ? "" : ",\"scheduled_at\":\"" + scheduledAt + "\"")
                        + ",\"repeat\":" + repeat + "}")
                .post("/posts")
                .then()
                .statusCode(202)
                .extract()
                .jsonPath();
    }

    private JsonPath series(String id) {
        return as(workspace, Mode.TEST)
                .get("/post-series/" + id)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
    }

    private void runJob() {
        job.createDue().await().atMost(Duration.ofSeconds(60));
    }

    private static Instant instant(JsonPath json, String path) {
        return Instant.parse(json.getString(path));
    }

    private long postsOf(String seriesId) throws Exception {
        return PostsTestSupport.count("select count(*) from posts where series_id = ?", seriesId);
    }

    @Test
    void theFirstPostStartsTheSeriesShownWithItsRule() {
        String at = Instant.now()
                .plus(1, ChronoUnit.HOURS)
                .truncatedTo(ChronoUnit.SECONDS)
                .toString();
        JsonPath first = post("Weekly tip", at, "{\"every\":\"P7D\",\"count\":3}");
        String seriesId = first.getString("data.series_id");
        assertThat(seriesId).matches("^ser_[a-f0-9]{24}$");

        JsonPath series = series(seriesId);
        assertThat(series.getString("data.id")).isEqualTo(seriesId);
        assertThat(series.getString("data.status")).isEqualTo("active");
        assertThat(series.getString("data.mode")).isEqualTo("test");
        assertThat(series.getString("data.repeat.every")).isEqualTo("P7D");
        assertThat(series.getInt("data.repeat.count")).isEqualTo(3);
        assertThat(series.getString("data.repeat.timezone")).isEqualTo("UTC");
        assertThat(series.getList("data.post_ids")).containsExactly(first.getString("data.id"));
        assertThat(series.getInt("data.posts_created")).isEqualTo(1);
        assertThat(instant(series, "data.next_at")).isEqualTo(Instant.parse(at).plus(7, ChronoUnit.DAYS));
        assertThat(series.getString("data.last_error")).isNull();
        as(workspace, Mode.TEST)
                .get("/posts/" + first.getString("data.id"))
                .then()
                .body("data.series_id", equalTo(seriesId));

        // Not due before the first post is: the job leaves it alone.
        runJob();
        assertThat(series(seriesId).getList("data.post_ids")).hasSize(1);
    }

    @Test
    void whenThePostBeforeFallsDueTheNextCopyIsCreatedWithItsOwnReservationAndTheCountCompletesTheSeries()
            throws Exception {
        JsonPath first = post("Daily news", null, "{\"every\":\"P1W\",\"count\":2}");
        String seriesId = first.getString("data.series_id");
        Instant firstAt = instant(first, "data.created_at");
        assertThat(FakeUpstreams.reserved(workspace, "test")).isEqualTo(1);

        runJob();

        JsonPath series = series(seriesId);
        List<String> postIds = series.getList("data.post_ids");
        assertThat(postIds).hasSize(2).startsWith(first.getString("data.id"));
        String copy = postIds.get(1);
        as(workspace, Mode.TEST)
                .get("/posts/" + copy)
                .then()
                .statusCode(200)
                .body("data.status", equalTo("queued"))
                .body("data.text", equalTo("Daily news"))
                .body("data.series_id", equalTo(seriesId))
                .body(
                        "data.scheduled_at",
                        equalTo(firstAt.plus(7, ChronoUnit.DAYS).toString()));
        assertThat(FakeUpstreams.RESERVATIONS.get(UsageReservation.publicationId(copy, account)))
                .isEqualTo("reserved");
        assertThat(FakeUpstreams.reserved(workspace, "test")).isEqualTo(2);
        assertThat(FakeUpstreams.holders(profile)).contains(copy);
        assertThat(series.getString("data.status")).isEqualTo("completed");
        assertThat(series.getString("data.next_at")).isNull();
        assertThat(series.getInt("data.posts_created")).isEqualTo(2);

        runJob();
        assertThat(postsOf(seriesId)).isEqualTo(2);
    }

    @Test
    void aCopyCreatedBeforeACrashIsNotCreatedAgainWhenTheSeriesIsRetried() throws Exception {
        JsonPath first = post("Crash-proof", null, "{\"every\":\"P1D\",\"count\":5}");
        String seriesId = first.getString("data.series_id");
        runJob();
        List<String> created = series(seriesId).getList("data.post_ids");
        assertThat(created).hasSize(2);

        // What a replica that died between creating the copy and advancing the series leaves: the series still at
        // occurrence 1, due again once its claim lapsed.
        PostsTestSupport.execute("""
                update post_series set next_index = 1, post_ids = array[?], create_at = now() - interval '1 second',
                    next_at = first_at + interval '1 day'
                where id = ?""", first.getString("data.id"), seriesId);
        runJob();

        JsonPath series = series(seriesId);
        assertThat(series.getList("data.post_ids")).isEqualTo(created);
        assertThat(postsOf(seriesId)).isEqualTo(2);
        assertThat(FakeUpstreams.reserved(workspace, "test")).isEqualTo(2);
        assertThat(instant(series, "data.next_at"))
                .isEqualTo(instant(first, "data.created_at").plus(2, ChronoUnit.DAYS));
    }

    @Test
    void aRefusedCopyIsTheSeriesLastErrorAndTheSeriesGoesOnWithTheNextOne() throws Exception {
        FakeUpstreams.setPublicationLimit(workspace, "test", 1);
        JsonPath first = post("Evergreen", null, "{\"every\":\"P1D\",\"count\":3}");
        String seriesId = first.getString("data.series_id");

        runJob();

        JsonPath refused = series(seriesId);
        assertThat(refused.getString("data.status")).isEqualTo("active");
        assertThat(refused.getList("data.post_ids")).containsExactly(first.getString("data.id"));
        assertThat(refused.getString("data.last_error.code")).isEqualTo("usage_limit_exceeded");
        assertThat(instant(refused, "data.next_at"))
                .isEqualTo(instant(first, "data.created_at").plus(2, ChronoUnit.DAYS));
        assertThat(postsOf(seriesId)).isEqualTo(1);

        // The allowance grows; the next occurrence falls due and is created.
        FakeUpstreams.setPublicationLimit(workspace, "test", 10);
        PostsTestSupport.execute(
                "update post_series set create_at = now() - interval '1 second' where id = ?", seriesId);
        runJob();
        JsonPath series = series(seriesId);
        assertThat(series.getList("data.post_ids")).hasSize(2);
        assertThat(series.getString("data.last_error")).isNull();
        assertThat(series.getString("data.status")).isEqualTo("completed");
    }

    @Test
    void untilEndsTheSeriesWithTheLastOccurrenceNotAfterIt() throws Exception {
        String at = Instant.now()
                .plus(1, ChronoUnit.HOURS)
                .truncatedTo(ChronoUnit.SECONDS)
                .toString();
        String until = Instant.parse(at).plus(8, ChronoUnit.DAYS).toString();
        String seriesId = post("Until", at, "{\"every\":\"P7D\",\"until\":\"" + until + "\"}")
                .getString("data.series_id");
        PostsTestSupport.execute(
                "update post_series set create_at = now() - interval '1 second' where id = ?", seriesId);

        runJob();

        JsonPath series = series(seriesId);
        assertThat(series.getString("data.repeat.until")).isEqualTo(until);
        assertThat(series.getList("data.post_ids")).hasSize(2);
        assertThat(series.getString("data.status")).isEqualTo("completed");
        String copy = series.<String>getList("data.post_ids").get(1);
        as(workspace, Mode.TEST)
                .get("/posts/" + copy)
                .then()
                .body(
                        "data.scheduled_at",
                        equalTo(Instant.parse(at).plus(7, ChronoUnit.DAYS).toString()));
    }

    @Test
    void cancelingTheSeriesCancelsItsPendingCopyAndReleasesItsReservationAndHold() throws Exception {
        JsonPath first = post("Canceled later", null, "{\"every\":\"P7D\",\"count\":10}");
        String seriesId = first.getString("data.series_id");
        runJob();
        String copy = series(seriesId).<String>getList("data.post_ids").get(1);
        assertThat(FakeUpstreams.holders(profile)).contains(copy);

        as(workspace, Mode.TEST)
                .delete("/post-series/" + seriesId)
                .then()
                .statusCode(200)
                .body("data.id", equalTo(seriesId))
                .body("data.status", equalTo("canceled"))
                .body("data.next_at", nullValue())
                .body("data.posts_created", equalTo(2));

        as(workspace, Mode.TEST)
                .get("/posts/" + copy)
                .then()
                .body("data.status", equalTo("canceled"))
                .body("data.targets[0].status", equalTo("canceled"));
        // post.canceled releases the copy's reservation in usage-service; the hold is given back before the answer.
        assertThat(PostsTestSupport.count(
                        "select count(*) from outbox where topic = 'post.finalized' and message_key = ?"
                                + " and payload ->> 'type' = 'post.canceled'",
                        copy))
                .isEqualTo(1);
        assertThat(FakeUpstreams.holders(profile)).doesNotContain(copy);

        // Nothing more is created, and canceling again changes nothing.
        PostsTestSupport.execute(
                "update post_series set create_at = now() - interval '1 second' where id = ?", seriesId);
        runJob();
        assertThat(postsOf(seriesId)).isEqualTo(2);
        as(workspace, Mode.TEST)
                .delete("/post-series/" + seriesId)
                .then()
                .statusCode(200)
                .body("data.status", equalTo("canceled"));
    }

    @Test
    void anotherTenantsSeriesIsNotFound() {
        String seriesId = post("Mine", null, "{\"every\":\"P7D\",\"count\":2}").getString("data.series_id");
        String other = ResourceIds.newId(IdPrefix.WORKSPACE);
        as(other, Mode.TEST).get("/post-series/" + seriesId).then().statusCode(404);
        as(other, Mode.TEST).delete("/post-series/" + seriesId).then().statusCode(404);
        as(workspace, Mode.LIVE).get("/post-series/" + seriesId).then().statusCode(404);
        as(workspace, Mode.TEST)
                .get("/post-series/" + ResourceIds.newId(IdPrefix.POST_SERIES))
                .then()
                .statusCode(404)
                .body("error.code", equalTo("not_found"));
    }

    @Test
    void anInvalidRepeatIsRefusedFieldByFieldAndChargesNothing() {
        Response response = posting(workspace, Mode.TEST)
                .body("{\"text\":\"Bad\",\"account_ids\":[\"" + account + "\"],"
                        + "\"repeat\":{\"every\":\"PT1H\",\"count\":400,\"timezone\":\"Mars/Olympus\"}}")
                .post("/posts");
        response.then().statusCode(422).body("error.code", equalTo("validation_failed"));
        List<String> fields = response.path("error.details.errors.field");
        assertThat(fields).contains("repeat.every", "repeat.count", "repeat.timezone");

        String past = Instant.now()
                .minus(1, ChronoUnit.DAYS)
                .truncatedTo(ChronoUnit.SECONDS)
                .toString();
        posting(workspace, Mode.TEST)
                .body("{\"text\":\"Bad\",\"account_ids\":[\"" + account + "\"],"
                        + "\"repeat\":{\"every\":\"P1D\",\"until\":\"" + past + "\"}}")
                .post("/posts")
                .then()
                .statusCode(422)
                .body("error.details.errors[0].field", equalTo("repeat.until"));
        posting(workspace, Mode.TEST)
                .body("{\"text\":\"Bad\",\"account_ids\":[\"" + account + "\"],\"scheduled_at\":\"next_slot\","
                        + "\"repeat\":{\"every\":\"P1D\",\"count\":2}}")
                .post("/posts")
                .then()
                .statusCode(422)
                .body("error.details.errors.field", org.hamcrest.Matchers.hasItem("repeat"))
                .body("error.details.errors.code", org.hamcrest.Matchers.hasItem("not_supported"));
        assertThat(FakeUpstreams.reserved(workspace, "test")).isZero();
    }

    @Test
    void theValidationDryRunReportsRepeatProblemsToo() {
        as(workspace, Mode.TEST)
                .body("{\"text\":\"Try\",\"account_ids\":[\"" + account + "\"],\"repeat\":{\"every\":\"P1D\"}}")
                .post("/posts/validate")
                .then()
                .statusCode(200)
                .body("data.valid", equalTo(false))
                .body("data.problems[0].field", equalTo("repeat"));
    }
}
