package dev.herald.posts.rest;

import static dev.herald.posts.support.PostsTestSupport.as;
import static dev.herald.posts.support.PostsTestSupport.posting;
import static dev.herald.posts.support.PostsTestSupport.testAccount;
import static dev.herald.posts.support.PostsTestSupport.textPost;
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
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code POST /posts} accepted or refused ({@code PostService}, {@code AcceptanceHolds}): validation, accounts, reservations, fences. */
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

    @Test
    void acceptsAPostWithEveryTargetQueuedAndReservesOnePublicationPerTarget() {
        String profile = ResourceIds.newId(IdPrefix.PROFILE);
        String linkedIn = testAccount(workspace, "linkedin", profile);
        String tiktok = testAccount(workspace, "tiktok", null);
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
        String linkedIn = testAccount(workspace, "linkedin", null);
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
        String tiktok = testAccount(workspace, "tiktok", null);
        String youtube = testAccount(workspace, "youtube", null);
        String pinterest = testAccount(workspace, "pinterest", null);
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
        String healthy = testAccount(workspace, "linkedin", null);
        String broken = testAccount(workspace, "facebook", null);
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
        String disconnected = testAccount(workspace, "linkedin", null);
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
        String broken = testAccount(workspace, "pinterest", null);
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
        String linkedIn = testAccount(workspace, "linkedin", null);
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
    void aLivePostOverAccountCapacityIsRefused() {
        String live = FakeUpstreams.addAccount(workspace, "live", "linkedin", "live_user", null);
        FakeUpstreams.OVER_CAPACITY.add(workspace + ":live");
        posting(workspace, Mode.LIVE)
                .body(textPost(live, "Hi"))
                .post("/posts")
                .then()
                .statusCode(409)
                .header(LimitRefusal.HEADER, "true")
                .body("error.code", equalTo("account_capacity_exceeded"))
                .body("error.details.limit", equalTo(2))
                .body("error.details.connected", equalTo(3));
    }

    @Test
    void aFenceCountsPendingPostsAndRefusesNewOnesUntilLifted() {
        String linkedIn = testAccount(workspace, "linkedin", null);
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
