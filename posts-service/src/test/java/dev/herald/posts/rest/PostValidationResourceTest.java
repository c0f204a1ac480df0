package dev.herald.posts.rest;

import static dev.herald.posts.support.PostsTestSupport.as;
import static dev.herald.posts.support.PostsTestSupport.posting;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;

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
import io.restassured.path.json.JsonPath;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
@WithTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = PostsTestSupport.DATABASE),
        scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakeUpstreams.class, scope = TestResourceScope.MATCHING_RESOURCES)
class PostValidationResourceTest {
    private String workspace;

    @BeforeEach
    void newWorkspace() {
        FakeUpstreams.ensureStarted();
        workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
    }

    private String account(String platform) {
        return FakeUpstreams.addAccount(
                workspace,
                "test",
                platform,
                "user_" + UUID.randomUUID().toString().substring(0, 6),
                null);
    }

    private static String images(int count) {
        StringBuilder items = new StringBuilder("[");
        for (int i = 0; i < count; i++) {
            items.append(i == 0 ? "" : ",")
                    // .invalid never resolves (RFC 2606): the probe asks no one, and says so.
                    .append("{\"url\":\"https://media.herald.invalid/")
                    .append(i)
                    .append(".jpg\",\"type\":\"image\"}");
        }
        return items.append(']').toString();
    }

    /** A body with one problem per target: a caption, a carousel, a privacy level and a first comment. */
    private static String troubled(String instagram, String tiktok, String pinterest, String unknown) {
        return "{\"text\":\"" + "x".repeat(2300) + "\",\"account_ids\":[\"" + instagram + "\",\"" + tiktok + "\",\""
                + pinterest + "\",\"" + unknown + "\"],\"media\":" + images(11) + ","
                + "\"platform_options\":{\"tiktok\":{\"privacy_level\":\"FOLLOWER_OF_CREATOR\"},"
                + "\"pinterest\":{\"board_id\":\"42\",\"first_comment\":{\"text\":\"Pin it\"}}}}";
    }

    @Test
    void validateNamesEachTargetsProblemsAndCreatesReservesAndHoldsNothing() throws Exception {
        String instagram = account("instagram");
        String tiktok = account("tiktok");
        String pinterest = account("pinterest");
        String unknown = ResourceIds.newId(IdPrefix.ACCOUNT);
        int batches = FakeUpstreams.BATCHES.get();

        JsonPath answer = as(workspace, Mode.TEST)
                .body(troubled(instagram, tiktok, pinterest, unknown))
                .post("/posts/validate")
                .then()
                .statusCode(200)
                .body("data.valid", equalTo(false))
                // The dry run probes each item: one whose host does not resolve is every target's problem, the post's.
                .body("data.problems.code", everyItem(equalTo("media_unreachable")))
                .body("data.problems.field", hasItems("media[0].url", "media[10].url"))
                .body("data.problems", hasSize(11))
                .body("data.targets.account_id", equalTo(List.of(instagram, tiktok, pinterest, unknown)))
                .body(
                        "data.targets.platform",
                        equalTo(java.util.Arrays.asList("instagram", "tiktok", "pinterest", null)))
                .extract()
                .jsonPath();
        assertThat(fieldsAndCodes(answer, 0)).containsExactly("text too_long", "media too_long");
        assertThat(fieldsAndCodes(answer, 1))
                .containsExactly("text too_long", "platform_options.tiktok.privacy_level invalid_value");
        assertThat(fieldsAndCodes(answer, 2))
                .containsExactly(
                        "text too_long", "media too_long", "platform_options.pinterest.first_comment not_supported");
        assertThat(fieldsAndCodes(answer, 3)).containsExactly("account_ids[3] invalid_value");

        assertThat(FakeUpstreams.BATCHES.get()).isEqualTo(batches);
        assertThat(FakeUpstreams.reserved(workspace, "test")).isZero();
        assertThat(PostsTestSupport.count("select count(*) from posts where workspace_id = ?", workspace))
                .isZero();
        // A dry run books no health check ahead of a schedule: the lookup named no due time.
        assertThat(FakeUpstreams.LOOKUPS.get(instagram))
                .last()
                .satisfies(lookup -> assertThat(lookup.has("scheduled_at")).isFalse());
    }

    private static List<String> fieldsAndCodes(JsonPath answer, int target) {
        List<Map<String, String>> problems = answer.getList("data.targets[" + target + "].problems");
        return problems.stream().map(p -> p.get("field") + " " + p.get("code")).toList();
    }

    @Test
    void postsRefusesTheSameBodyWithEveryProblemAndTheSameTargets() {
        String instagram = account("instagram");
        String tiktok = account("tiktok");
        String pinterest = account("pinterest");
        String unknown = ResourceIds.newId(IdPrefix.ACCOUNT);
        String body = troubled(instagram, tiktok, pinterest, unknown);

        List<Object> validated = as(workspace, Mode.TEST)
                .body(body)
                .post("/posts/validate")
                .then()
                .statusCode(200)
                .extract()
                .path("data.targets");
        JsonPath refused = posting(workspace, Mode.TEST)
                .body(body)
                .post("/posts")
                .then()
                .statusCode(422)
                .body("error.code", equalTo("validation_failed"))
                .extract()
                .jsonPath();
        assertThat(refused.getList("error.details.targets")).isEqualTo(validated);
        // Every distinct problem once, in target order: each platform's caption limit says its own.
        assertThat(refused.getList("error.details.errors.field", String.class))
                .containsExactly(
                        "text",
                        "media",
                        "text",
                        "platform_options.tiktok.privacy_level",
                        "text",
                        "media",
                        "platform_options.pinterest.first_comment",
                        "account_ids[3]");
    }

    @Test
    void aValidBodyIsValidAndNeedsNoIdempotencyKey() throws Exception {
        // Without media: probing media served from here needs herald.media.allow-private-urls (PostValidationIT shows
        // probed media that is valid).
        String linkedIn = account("linkedin");
        String facebook = account("facebook");
        as(workspace, Mode.TEST)
                .body("{\"text\":\"Hello\",\"account_ids\":[\"" + linkedIn + "\",\"" + facebook + "\"],"
                        + "\"first_comment\":{\"text\":\"More below\"}}")
                .post("/posts/validate")
                .then()
                .statusCode(200)
                .body("data.valid", equalTo(true))
                .body("data.problems", empty())
                .body("data.targets", hasSize(2))
                .body("data.targets[0].problems", empty())
                .body("data.targets[1].problems", empty());
        assertThat(PostsTestSupport.count("select count(*) from posts where workspace_id = ?", workspace))
                .isZero();
    }

    @Test
    void theShapeOfTheBodyIsThePostsProblemAndOnlyANonObjectIsRefused() {
        String linkedIn = account("linkedin");
        as(workspace, Mode.TEST)
                .body("{\"text\":7,\"account_ids\":[\"" + linkedIn + "\"],\"status\":\"x\",\"scheduled_at\":\"soon\"}")
                .post("/posts/validate")
                .then()
                .statusCode(200)
                .body("data.valid", equalTo(false))
                .body("data.problems.field", hasItems("text", "status", "scheduled_at"))
                .body("data.targets[0].account_id", equalTo(linkedIn))
                .body("data.targets[0].problems", empty());
        for (String body : List.of("[]", "\"post\"", "null")) {
            as(workspace, Mode.TEST)
                    .body(body)
                    .post("/posts/validate")
                    .then()
                    .statusCode(400)
                    .body("error.code", equalTo("invalid_request"));
        }
    }

    @Test
    void anAccountToReconnectIsItsTargetsProblemWithTheLinkThatReconnectsIt() {
        String healthy = account("linkedin");
        String broken = account("facebook");
        String reconnectUrl = "https://herald.example/connect/reconnect/tok_" + broken;
        FakeUpstreams.needsReauthorization(workspace, "test", broken, reconnectUrl);
        as(workspace, Mode.TEST)
                .body("{\"text\":\"Hi\",\"account_ids\":[\"" + healthy + "\",\"" + broken + "\"]}")
                .post("/posts/validate")
                .then()
                .statusCode(200)
                .body("data.valid", equalTo(false))
                .body("data.targets[0].problems", empty())
                .body("data.targets[1].problems", hasSize(1))
                .body("data.targets[1].problems[0].field", equalTo("account_ids[1]"))
                .body("data.targets[1].problems[0].code", equalTo("account_reauth_required"))
                .body("data.targets[1].problems[0].message", containsString(reconnectUrl));
    }

    @Test
    void eachTargetOfAPlatformThatTakesTheFirstCommentStartsPending() {
        String facebook = account("facebook");
        String linkedIn = account("linkedin");
        posting(workspace, Mode.TEST)
                .body("{\"text\":\"Hi\",\"account_ids\":[\"" + facebook + "\",\"" + linkedIn + "\"],"
                        + "\"first_comment\":{\"text\":\"More in the comments\"}}")
                .post("/posts")
                .then()
                .statusCode(202)
                .body("data.first_comment.text", equalTo("More in the comments"))
                .body("data.targets[0].first_comment.status", equalTo("pending"))
                .body("data.targets[1].first_comment.status", equalTo("pending"));
        // Only LinkedIn's own comment: the Facebook target gets none.
        posting(workspace, Mode.TEST)
                .body("{\"text\":\"Hi\",\"account_ids\":[\"" + facebook + "\",\"" + linkedIn + "\"],"
                        + "\"platform_options\":{\"linkedin\":{\"first_comment\":{\"text\":\"Link below\"}}}}")
                .post("/posts")
                .then()
                .statusCode(202)
                .body("data.targets[0].first_comment", nullValue())
                .body("data.targets[1].first_comment.status", equalTo("pending"));
    }
}
