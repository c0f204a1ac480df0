package dev.herald.accounts.rest;

import static dev.herald.accounts.support.AccountsTestSupport.as;
import static dev.herald.accounts.support.AccountsTestSupport.onVertx;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;

import dev.herald.accounts.provider.ProviderGrant;
import dev.herald.accounts.service.AccountConnection;
import dev.herald.accounts.service.AccountConnections;
import dev.herald.accounts.support.FakeProviders;
import dev.herald.accounts.support.FakeServices;
import dev.herald.common.auth.Mode;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.common.wire.Platform;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "accounts_test"))
@WithTestResource(value = FakeServices.class, scope = TestResourceScope.MATCHING_RESOURCES)
class PlatformReadsTest {
    @Inject
    AccountConnections connections;

    @Inject
    FakeProviders.TikTok tiktok;

    @Inject
    FakeProviders.Pinterest pinterest;

    private String workspace;

    @BeforeEach
    void newWorkspace() {
        FakeServices.ensureStarted();
        workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
    }

    private String sandbox(String platform) {
        return as(workspace, Mode.TEST)
                .body("{\"platform\":\"" + platform + "\",\"name\":\"Creator\",\"username\":\"creator.one\"}")
                .post("/accounts")
                .then()
                .statusCode(201)
                .extract()
                .path("data.id");
    }

    private String live(Platform platform, String accessToken) {
        ProviderGrant grant = new ProviderGrant(
                accessToken,
                "refresh-" + accessToken,
                Instant.now().plusSeconds(3600),
                null,
                Set.of("scope"),
                "subject-" + accessToken);
        return onVertx(() -> connections.connect(new AccountConnection(
                        workspace, Mode.LIVE, null, platform, "ext-" + accessToken, "Live", "live", grant, null)))
                .id();
    }

    @Test
    void testTikTokAccountsAnswerDeterministicPublishingOptions() {
        String id = sandbox("tiktok");
        var first = as(workspace, Mode.TEST)
                .get("/accounts/" + id + "/publishing-options")
                .then()
                .statusCode(200)
                .header("x-herald-cache", nullValue())
                .body("data.creator_nickname", equalTo("Creator"))
                .body("data.creator_username", equalTo("creator.one"))
                .body("data.privacy_level_options", hasSize(4))
                .body("data.max_video_post_duration_sec", equalTo(600))
                .extract()
                .asString();
        String again = as(workspace, Mode.TEST)
                .get("/accounts/" + id + "/publishing-options")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        assertThat(again).isEqualTo(first);
    }

    @Test
    void publishingOptionsAreForTikTokOnly() {
        String id = sandbox("instagram");
        as(workspace, Mode.TEST)
                .get("/accounts/" + id + "/publishing-options")
                .then()
                .statusCode(422)
                .body("error.code", equalTo("publishing_options_unavailable"));
    }

    @Test
    void liveTikTokOptionsComeFromTheProviderOnceAndThenFromTheCache() {
        String id = live(Platform.TIKTOK, "tt-token-" + workspace);
        int before = tiktok.calls.get();
        as(workspace, Mode.LIVE)
                .get("/accounts/" + id + "/publishing-options")
                .then()
                .statusCode(200)
                .header("x-herald-cache", nullValue())
                .body("data.creator_nickname", equalTo("Live Creator"))
                .body("data.comment_disabled", equalTo(true));
        as(workspace, Mode.LIVE)
                .get("/accounts/" + id + "/publishing-options")
                .then()
                .statusCode(200)
                .header("x-herald-cache", equalTo("hit"))
                .body("data.creator_nickname", equalTo("Live Creator"));
        assertThat(tiktok.calls.get() - before).isEqualTo(1);
        // The provider got the decrypted access token of this account.
        assertThat(tiktok.tokens).contains("tt-token-" + workspace);
    }

    @Test
    void testBoardsPageThroughMoreThanOneDefaultPageWithStringIds() {
        String id = sandbox("pinterest");
        var first = as(workspace, Mode.TEST)
                .get("/accounts/" + id + "/boards")
                .then()
                .statusCode(200)
                .body("data", hasSize(50))
                .body("meta.has_more", equalTo(true))
                .extract();
        String cursor = first.path("meta.next_cursor");
        List<String> ids = new ArrayList<>(first.path("data.id"));
        as(workspace, Mode.TEST)
                .queryParam("cursor", cursor)
                .get("/accounts/" + id + "/boards")
                .then()
                .statusCode(200)
                .body("data", hasSize(10))
                .body("meta.has_more", equalTo(false))
                .body("meta.next_cursor", nullValue())
                .extract()
                .<List<String>>path("data.id")
                .forEach(ids::add);
        assertThat(ids).hasSize(60).doesNotHaveDuplicates().allMatch(board -> board.matches("^[0-9]{1,40}$"));
        // Deterministic: the same account lists the same boards.
        assertThat(as(workspace, Mode.TEST)
                        .get("/accounts/" + id + "/boards?limit=100")
                        .then()
                        .extract()
                        .<List<String>>path("data.id"))
                .isEqualTo(ids);
        // Ids are strings on the wire, never numbers.
        assertThat(first.asString()).contains("\"id\":\"" + ids.get(0) + "\"");

        String board = ids.get(3);
        var sections = as(workspace, Mode.TEST)
                .get("/accounts/" + id + "/boards/" + board + "/sections?limit=30")
                .then()
                .statusCode(200)
                .body("data", hasSize(30))
                .body("meta.has_more", equalTo(true))
                .extract();
        as(workspace, Mode.TEST)
                .queryParam("cursor", sections.<String>path("meta.next_cursor"))
                .queryParam("limit", 30)
                .get("/accounts/" + id + "/boards/" + board + "/sections")
                .then()
                .statusCode(200)
                .body("data", hasSize(25))
                .body("meta.has_more", equalTo(false));
    }

    @Test
    void boardCursorsAreBoundToAccountBoardAndModeAndBounded() {
        String id = sandbox("pinterest");
        String other = sandbox("pinterest");
        String cursor = as(workspace, Mode.TEST)
                .get("/accounts/" + id + "/boards?limit=5")
                .then()
                .extract()
                .path("meta.next_cursor");
        as(workspace, Mode.TEST)
                .queryParam("cursor", cursor)
                .get("/accounts/" + other + "/boards")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("invalid_cursor"));
        List<String> boards = as(workspace, Mode.TEST)
                .get("/accounts/" + id + "/boards?limit=2")
                .then()
                .extract()
                .path("data.id");
        String sectionCursor = as(workspace, Mode.TEST)
                .get("/accounts/" + id + "/boards/" + boards.get(0) + "/sections?limit=5")
                .then()
                .extract()
                .path("meta.next_cursor");
        as(workspace, Mode.TEST)
                .queryParam("cursor", sectionCursor)
                .get("/accounts/" + id + "/boards/" + boards.get(1) + "/sections")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("invalid_cursor"));
        as(workspace, Mode.TEST)
                .queryParam("cursor", cursor)
                .get("/accounts/" + id + "/boards/" + boards.get(0) + "/sections")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("invalid_cursor"));

        as(workspace, Mode.TEST)
                .queryParam("cursor", "c".repeat(8193))
                .get("/accounts/" + id + "/boards")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("invalid_request"))
                .body("error.details.parameter", equalTo("cursor"));
        // Up to 8192 characters is a cursor the API reads (this one is simply not valid).
        as(workspace, Mode.TEST)
                .queryParam("cursor", "c".repeat(8192))
                .get("/accounts/" + id + "/boards")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("invalid_cursor"));
        as(workspace, Mode.TEST)
                .queryParam("cursor", "")
                .get("/accounts/" + id + "/boards")
                .then()
                .statusCode(400)
                .body("error.details.parameter", equalTo("cursor"));
        as(workspace, Mode.TEST)
                .get("/accounts/" + id + "/boards?limit=101")
                .then()
                .statusCode(400)
                .body("error.details.parameter", equalTo("limit"));
        as(workspace, Mode.TEST)
                .get("/accounts/" + id + "/boards?limit=")
                .then()
                .statusCode(400)
                .body("error.details.parameter", equalTo("limit"));
    }

    @Test
    void sectionsNeedABoardOfThisPinterestAccount() {
        String id = sandbox("pinterest");
        String other = sandbox("pinterest");
        String foreignBoard = as(workspace, Mode.TEST)
                .get("/accounts/" + other + "/boards?limit=1")
                .then()
                .extract()
                .path("data[0].id");
        as(workspace, Mode.TEST)
                .get("/accounts/" + id + "/boards/" + foreignBoard + "/sections")
                .then()
                .statusCode(404)
                .body("error.code", equalTo("not_found"));
        as(workspace, Mode.TEST)
                .get("/accounts/" + id + "/boards/12ab/sections")
                .then()
                .statusCode(404);
        as(workspace, Mode.TEST)
                .get("/accounts/" + id + "/boards/" + "1".repeat(41) + "/sections")
                .then()
                .statusCode(404);
        String tiktokAccount = sandbox("tiktok");
        as(workspace, Mode.TEST)
                .get("/accounts/" + tiktokAccount + "/boards")
                .then()
                .statusCode(404);
    }

    @Test
    void liveBoardsFollowPinterestsBookmarkAndCacheEachPage() {
        String id = live(Platform.PINTEREST, "pin-token-" + workspace);
        int before = pinterest.calls.get();
        var first = as(workspace, Mode.LIVE)
                .get("/accounts/" + id + "/boards")
                .then()
                .statusCode(200)
                .header("x-herald-cache", nullValue())
                .body("data[0].id", equalTo("9007199254740993"))
                .body("meta.has_more", equalTo(true))
                .extract();
        as(workspace, Mode.LIVE)
                .queryParam("cursor", first.<String>path("meta.next_cursor"))
                .get("/accounts/" + id + "/boards")
                .then()
                .statusCode(200)
                .body("data[0].id", equalTo("9007199254740995"))
                .body("meta.has_more", equalTo(false));
        as(workspace, Mode.LIVE)
                .get("/accounts/" + id + "/boards")
                .then()
                .statusCode(200)
                .header("x-herald-cache", equalTo("hit"));
        assertThat(pinterest.calls.get() - before).isEqualTo(2);
        // Herald's Pinterest app has full access here (herald.accounts.pinterest-trial-access=false): production host.
        assertThat(pinterest.sandboxFlags).containsOnly(false);
    }

    @Test
    void analyticsConsentIsAServerTimestampedReceiptOfTheCurrentAuthorization() {
        String id = sandbox("youtube");
        as(workspace, Mode.TEST)
                .get("/accounts/" + id)
                .then()
                .body("data.analytics_consent.status", equalTo("required"))
                .body("data.analytics_consent.accepted_at", nullValue());
        as(workspace, Mode.TEST)
                .body("{\"accepted\":false,\"policy_version\":\"2026-09-01\"}")
                .post("/accounts/" + id + "/analytics-consent")
                .then()
                .statusCode(422)
                .body("error.details.errors[0].field", equalTo("accepted"));
        as(workspace, Mode.TEST)
                .body("{\"accepted\":true,\"policy_version\":\"2020-01-01\"}")
                .post("/accounts/" + id + "/analytics-consent")
                .then()
                .statusCode(422)
                .body("error.details.errors[0].field", equalTo("policy_version"));
        as(workspace, Mode.TEST)
                .body("{\"accepted\":true,\"policy_version\":\"2026-09-01\",\"accepted_at\":\"2020-01-01T00:00:00Z\"}")
                .post("/accounts/" + id + "/analytics-consent")
                .then()
                .statusCode(422)
                .body("error.details.errors[0].code", equalTo("unknown_field"));
        as(workspace, Mode.TEST)
                .body("{\"accepted\":true,\"policy_version\":\"2026-09-01\",\"authorization_revision\":\"1\"}")
                .post("/accounts/" + id + "/analytics-consent")
                .then()
                .statusCode(422)
                .body("error.details.errors[0].field", equalTo("authorization_revision"))
                .body("error.details.errors[0].code", equalTo("invalid_type"));
        as(workspace, Mode.TEST)
                .body("{\"accepted\":true,\"policy_version\":\"2026-09-01\",\"authorization_revision\":0}")
                .post("/accounts/" + id + "/analytics-consent")
                .then()
                .statusCode(422)
                .body("error.details.errors[0].code", equalTo("invalid_value"));
        as(workspace, Mode.TEST)
                .body("{\"accepted\":true,\"policy_version\":\"2026-09-01\",\"authorization_revision\":2}")
                .post("/accounts/" + id + "/analytics-consent")
                .then()
                .statusCode(409)
                .body("error.details.reason", equalTo("authorization_revision_changed"));

        Instant before = Instant.now().minusSeconds(1);
        String acceptedAt = as(workspace, Mode.TEST)
                .body("{\"accepted\":true,\"policy_version\":\"2026-09-01\",\"authorization_revision\":1}")
                .post("/accounts/" + id + "/analytics-consent")
                .then()
                .statusCode(200)
                .body("data.analytics_consent.status", equalTo("accepted"))
                .body("data.analytics_consent.policy_version", equalTo("2026-09-01"))
                .body("data.analytics_consent.authorization_revision", equalTo(1))
                .extract()
                .path("data.analytics_consent.accepted_at");
        assertThat(Instant.parse(acceptedAt)).isAfter(before);
        // Accepting again keeps the first receipt.
        as(workspace, Mode.TEST)
                .body("{\"accepted\":true,\"policy_version\":\"2026-09-01\"}")
                .post("/accounts/" + id + "/analytics-consent")
                .then()
                .statusCode(200)
                .body("data.analytics_consent.accepted_at", equalTo(acceptedAt));
    }

    @Test
    void analyticsConsentIsNotRequiredOutsideYouTube() {
        String id = sandbox("tiktok");
        as(workspace, Mode.TEST)
                .body("{\"accepted\":true,\"policy_version\":\"2026-09-01\"}")
                .post("/accounts/" + id + "/analytics-consent")
                .then()
                .statusCode(409)
                .body("error.code", equalTo("analytics_consent_not_required"));
    }
}
