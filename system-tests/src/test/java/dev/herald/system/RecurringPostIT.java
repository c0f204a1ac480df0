package dev.herald.system;

import static dev.herald.system.RunningSuite.as;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * Recurring posts through the gateway: a post with {@code repeat} starts a series; when it falls due, posts-service
 * creates the next copy (its own post, scheduled a period later in the series' zone, its publication reserved when
 * created); {@code DELETE /post-series/{id}} cancels the pending copy and releases its reservation.
 */
class RecurringPostIT {
    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    private static JsonPath series(String key, String id) {
        return as(key).get("/post-series/" + id)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
    }

    private static JsonPath awaitSeries(String key, String id, Predicate<JsonPath> done) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 60_000;
        JsonPath series = series(key, id);
        while (!done.test(series) && System.currentTimeMillis() < deadline) {
            Thread.sleep(250);
            series = series(key, id);
        }
        return series;
    }

    private static JsonPath usage(String key) {
        return as(key).get("/usage").then().statusCode(200).extract().jsonPath();
    }

    @Test
    void aWeeklyPostCreatesItsNextCopyWhenDueAndCancelingTheSeriesCancelsThePendingCopy() throws Exception {
        String key = PostsPipelineIT.testKey("Recurring posts");
        String account = PostsPipelineIT.account(
                key, "linkedin", "weekly_" + UUID.randomUUID().toString().substring(0, 6));
        // Due in a few seconds (at least 5 s ahead when it arrives, on a busy machine too).
        Instant firstAt = Instant.now().plusSeconds(10).truncatedTo(ChronoUnit.SECONDS);
        Response created = PostsPipelineIT.post(
                key,
                UUID.randomUUID().toString(),
                "{\"text\":\"Weekly tip\",\"account_ids\":[\"" + account + "\"],\"scheduled_at\":\"" + firstAt
                        + "\",\"repeat\":{\"every\":\"P7D\",\"count\":4,\"timezone\":\"Europe/Berlin\"}}");
        assertThat(created.statusCode()).as(created.asString()).isEqualTo(202);
        JsonPath accepted = created.jsonPath();
        String first = accepted.getString("data.id");
        String seriesId = accepted.getString("data.series_id");
        assertThat(seriesId).matches("^ser_[a-f0-9]{24}$");
        Instant copyAt = ZonedDateTime.ofInstant(firstAt, BERLIN).plusDays(7).toInstant();
        JsonPath started = series(key, seriesId);
        assertThat(started.getString("data.status")).isEqualTo("active");
        assertThat(started.getList("data.post_ids")).containsExactly(first);
        assertThat(Instant.parse(started.getString("data.next_at"))).isEqualTo(copyAt);

        // The first post falls due: it publishes, and the next copy is created.
        JsonPath grown =
                awaitSeries(key, seriesId, s -> s.getList("data.post_ids").size() == 2);
        List<String> postIds = grown.getList("data.post_ids");
        assertThat(postIds)
                .as("the series' posts a minute after its first fell due")
                .hasSize(2);
        assertThat(postIds.get(0)).isEqualTo(first);
        String copy = postIds.get(1);
        assertThat(grown.getInt("data.posts_created")).isEqualTo(2);
        assertThat(Instant.parse(grown.getString("data.next_at"))).isEqualTo(copyAt.plus(7, ChronoUnit.DAYS));
        JsonPath copied =
                as(key).get("/posts/" + copy).then().statusCode(200).extract().jsonPath();
        assertThat(copied.getString("data.status")).isEqualTo("queued");
        assertThat(copied.getString("data.series_id")).isEqualTo(seriesId);
        assertThat(copied.getString("data.text")).isEqualTo("Weekly tip");
        assertThat(Instant.parse(copied.getString("data.scheduled_at"))).isEqualTo(copyAt);
        assertThat(PostsPipelineIT.awaitFinal(key, first).getString("data.status"))
                .isEqualTo("published");
        // The first publication is used; the copy's was reserved when the copy was created, in the period of the
        // copy's own time: a test workspace's calendar month, so GET /usage (this month) shows it only when the copy
        // falls before the month ends.
        JsonPath charged = usage(key);
        boolean copyThisMonth = copyAt.isBefore(Instant.parse(charged.getString("data.period.end")));
        assertThat(charged.getInt("data.publications.used")).isEqualTo(1);
        assertThat(charged.getInt("data.publications.reserved")).isEqualTo(copyThisMonth ? 1 : 0);

        JsonPath canceled = as(key).delete("/post-series/" + seriesId)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(canceled.getString("data.status")).isEqualTo("canceled");
        assertThat(canceled.getString("data.next_at")).isNull();
        assertThat(as(key).get("/posts/" + copy).then().extract().jsonPath().getString("data.status"))
                .isEqualTo("canceled");
        // The cancellation's event releases the copy's reservation in usage-service: free of charge.
        long deadline = System.currentTimeMillis() + 30_000;
        while (usage(key).getInt("data.publications.reserved") != 0 && System.currentTimeMillis() < deadline) {
            Thread.sleep(250);
        }
        JsonPath released = usage(key);
        assertThat(released.getInt("data.publications.reserved")).isZero();
        assertThat(released.getInt("data.publications.used")).isEqualTo(1);
        assertThat(series(key, seriesId).getList("data.post_ids")).containsExactly(first, copy);
    }
}
