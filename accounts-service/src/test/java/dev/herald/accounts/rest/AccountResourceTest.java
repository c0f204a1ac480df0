package dev.herald.accounts.rest;

import static dev.herald.accounts.support.AccountsTestSupport.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

import dev.herald.accounts.support.FakeServices;
import dev.herald.common.api.LimitRefusal;
import dev.herald.common.auth.Mode;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "accounts_test"))
@WithTestResource(value = FakeServices.class, scope = TestResourceScope.MATCHING_RESOURCES)
class AccountResourceTest {
    private String workspace;

    @BeforeEach
    void newWorkspace() {
        FakeServices.ensureStarted();
        workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
    }

    private String create(String body) {
        return as(workspace, Mode.TEST)
                .body(body)
                .post("/accounts")
                .then()
                .statusCode(201)
                .extract()
                .path("data.id");
    }

    private String profile(Mode mode) {
        String id = ResourceIds.newId(IdPrefix.PROFILE);
        FakeServices.addProfile(workspace, mode.wireName(), id);
        return id;
    }

    @Test
    void nullIsTheSameAsLeavingAFieldOut() {
        as(workspace, Mode.TEST)
                .body("{\"platform\":\"tiktok\",\"profile_id\":null,\"name\":null,\"username\":null}")
                .post("/accounts")
                .then()
                .statusCode(201)
                .body("data.profile_id", nullValue())
                .body("data.name", notNullValue())
                .body("data.username", notNullValue());
    }

    @Test
    void aSandboxAccountIsCreatedConnectedWithTrimmedNames() {
        String profile = profile(Mode.TEST);
        String id = as(workspace, Mode.TEST)
                .body("{\"platform\":\"tiktok\",\"profile_id\":\"" + profile
                        + "\",\"name\":\"  Acme  \",\"username\":\" acme.tt \"}")
                .post("/accounts")
                .then()
                .statusCode(201)
                .body("data.id", matchesPattern("^acc_[a-f0-9]{24}$"))
                .body("data.platform", equalTo("tiktok"))
                .body("data.profile_id", equalTo(profile))
                .body("data.name", equalTo("Acme"))
                .body("data.username", equalTo("acme.tt"))
                .body("data.status", equalTo("connected"))
                .body("data.mode", equalTo("test"))
                .body("data.connected_at", matchesPattern("^\\d{4}-\\d{2}-\\d{2}T.*Z$"))
                .body("data.disconnected_at", nullValue())
                .body("data.created_at", notNullValue())
                .body("data.updated_at", notNullValue())
                // Only YouTube accounts carry an analytics-consent receipt.
                .body("data.containsKey('analytics_consent')", equalTo(false))
                .extract()
                .path("data.id");
        assertThat(FakeServices.connected(workspace, "test")).containsExactly(id);
        assertThat(FakeServices.holders(profile)).containsExactly(id);

        as(workspace, Mode.TEST).get("/accounts/" + id).then().statusCode(200).body("data.name", equalTo("Acme"));
        // Without name and username the sandbox picks recognisable ones.
        as(workspace, Mode.TEST)
                .body("{\"platform\":\"youtube\"}")
                .post("/accounts")
                .then()
                .statusCode(201)
                .body("data.name", equalTo("Test YouTube account"))
                .body("data.username", matchesPattern("^test_youtube_[a-f0-9]{8}$"))
                .body("data.profile_id", nullValue())
                .body("data.analytics_consent.status", equalTo("required"))
                .body("data.analytics_consent.authorization_revision", equalTo(1));
    }

    @Test
    void sandboxAccountsNeedATestKey() {
        as(workspace, Mode.LIVE)
                .body("{\"platform\":\"tiktok\"}")
                .post("/accounts")
                .then()
                .statusCode(403)
                .body("error.code", equalTo("test_mode_only"));
        // Decided before the body is read: a live key is not told what is wrong with a body it should not send.
        for (String body : new String[] {"{bad", "{\"platform\":\"tiktok\",\"name\":\"a\\u0000\"}", "{\"x\":1}"}) {
            as(workspace, Mode.LIVE)
                    .body(body)
                    .post("/accounts")
                    .then()
                    .statusCode(403)
                    .body("error.code", equalTo("test_mode_only"));
        }
        assertThat(FakeServices.connected(workspace, "live")).isEmpty();
    }

    @Test
    void theBodyIsCheckedExactlyAndEveryBadFieldIsReported() {
        String longName = "x".repeat(101);
        as(workspace, Mode.TEST)
                .body("{\"platform\":\"myspace\",\"profile_id\":\"prf_nope\",\"name\":\"   \",\"username\":\""
                        + longName + "\",\"status\":\"connected\"}")
                .post("/accounts")
                .then()
                .statusCode(422)
                .body("error.code", equalTo("validation_failed"))
                .body(
                        "error.details.errors.field",
                        containsInAnyOrder("platform", "profile_id", "name", "username", "status"))
                .body("error.details.errors.find { it.field == 'name' }.code", equalTo("too_short"))
                .body("error.details.errors.find { it.field == 'username' }.code", equalTo("too_long"))
                .body("error.details.errors.find { it.field == 'status' }.code", equalTo("unknown_field"));
        as(workspace, Mode.TEST)
                .body("{}")
                .post("/accounts")
                .then()
                .statusCode(422)
                .body("error.details.errors[0].field", equalTo("platform"))
                .body("error.details.errors[0].code", equalTo("required"));
        // 100 characters after trimming is the most a name may have.
        as(workspace, Mode.TEST)
                .body("{\"platform\":\"tiktok\",\"name\":\" " + "n".repeat(100) + " \"}")
                .post("/accounts")
                .then()
                .statusCode(201);
        // A profile of another workspace is no profile at all.
        String elsewhere = ResourceIds.newId(IdPrefix.PROFILE);
        FakeServices.addProfile(ResourceIds.newId(IdPrefix.WORKSPACE), "test", elsewhere);
        as(workspace, Mode.TEST)
                .body("{\"platform\":\"tiktok\",\"profile_id\":\"" + elsewhere + "\"}")
                .post("/accounts")
                .then()
                .statusCode(422)
                .body("error.details.errors[0].field", equalTo("profile_id"))
                .body("error.details.errors[0].code", equalTo("invalid_value"));
        assertThat(FakeServices.connected(workspace, "test")).hasSize(1);
    }

    @Test
    void eleventhTestAccountIsRefused() {
        for (int i = 0; i < 10; i++) {
            create("{\"platform\":\"instagram\"}");
        }
        as(workspace, Mode.TEST)
                .body("{\"platform\":\"instagram\"}")
                .post("/accounts")
                .then()
                .statusCode(409)
                // The gateway gives this request's unit back: a limit error charges nothing.
                .header(LimitRefusal.HEADER, "true")
                .body("error.code", equalTo("account_limit_reached"))
                .body("error.details.mode", equalTo("test"))
                .body("error.details.plan", equalTo("free"))
                .body("error.details.limit", equalTo(10))
                .body("error.details.connected", equalTo(10))
                .body("error.details.upgrade_url", equalTo("https://herald.dev/pricing"));
        // The refusal wrote nothing.
        as(workspace, Mode.TEST)
                .get("/accounts?limit=100")
                .then()
                .statusCode(200)
                .body("data", hasSize(10));
        // A disconnect frees a slot.
        String first = as(workspace, Mode.TEST)
                .get("/accounts?limit=1")
                .then()
                .extract()
                .path("data[0].id");
        as(workspace, Mode.TEST)
                .delete("/accounts/" + first)
                .then()
                .statusCode(200)
                .body("data.status", equalTo("disconnected"));
        create("{\"platform\":\"instagram\"}");
    }

    @Test
    void otherWorkspacesAndModesCannotSeeOrTouchAnAccount() {
        String id = create("{\"platform\":\"tiktok\"}");
        String stranger = ResourceIds.newId(IdPrefix.WORKSPACE);
        for (var request : List.of(as(stranger, Mode.TEST), as(workspace, Mode.LIVE))) {
            request.get("/accounts/" + id).then().statusCode(404).body("error.code", equalTo("not_found"));
        }
        as(stranger, Mode.TEST)
                .body("{\"profile_id\":null}")
                .patch("/accounts/" + id)
                .then()
                .statusCode(404);
        as(stranger, Mode.TEST).delete("/accounts/" + id).then().statusCode(404);
        as(workspace, Mode.LIVE)
                .get("/accounts/" + id + "/publishing-options")
                .then()
                .statusCode(404);
        as(stranger, Mode.TEST)
                .body("{\"accepted\":true,\"policy_version\":\"2026-09-01\"}")
                .post("/accounts/" + id + "/analytics-consent")
                .then()
                .statusCode(404);
        as(stranger, Mode.TEST).get("/accounts").then().statusCode(200).body("data", hasSize(0));
        as(workspace, Mode.TEST).get("/accounts/acc_nothing").then().statusCode(404);
        as(workspace, Mode.TEST)
                .get("/accounts/" + id)
                .then()
                .statusCode(200)
                .body("data.status", equalTo("connected"));
    }

    @Test
    void listFiltersByProfilePlatformAndNameOrUsername() {
        String profile = profile(Mode.TEST);
        String a = create("{\"platform\":\"tiktok\",\"name\":\"Alpha Brand\",\"username\":\"alpha\",\"profile_id\":\""
                + profile + "\"}");
        String b = create("{\"platform\":\"youtube\",\"name\":\"Beta\",\"username\":\"beta_100%\"}");
        String c = create("{\"platform\":\"tiktok\",\"name\":\"Gamma\",\"username\":\"gamma\"}");

        as(workspace, Mode.TEST)
                .get("/accounts")
                .then()
                .statusCode(200)
                .body("data.id", org.hamcrest.Matchers.contains(c, b, a))
                .body("meta.has_more", equalTo(false))
                .body("meta.next_cursor", nullValue());
        as(workspace, Mode.TEST)
                .get("/accounts?platform=tiktok")
                .then()
                .body("data.id", org.hamcrest.Matchers.contains(c, a));
        as(workspace, Mode.TEST)
                .get("/accounts?profile_id=" + profile)
                .then()
                .body("data.id", org.hamcrest.Matchers.contains(a));
        as(workspace, Mode.TEST).get("/accounts?q=BRAND").then().body("data.id", org.hamcrest.Matchers.contains(a));
        as(workspace, Mode.TEST).get("/accounts?q=gam").then().body("data.id", org.hamcrest.Matchers.contains(c));
        // % is a literal, not a wildcard.
        as(workspace, Mode.TEST)
                .queryParam("q", "100%")
                .get("/accounts")
                .then()
                .body("data.id", org.hamcrest.Matchers.contains(b));
        as(workspace, Mode.TEST).queryParam("q", "a%").get("/accounts").then().body("data", hasSize(0));

        as(workspace, Mode.TEST)
                .get("/accounts?platform=myspace")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("invalid_request"))
                .body("error.details.parameter", equalTo("platform"));
        as(workspace, Mode.TEST)
                .get("/accounts?profile_id=nope")
                .then()
                .statusCode(400)
                .body("error.details.parameter", equalTo("profile_id"));
        as(workspace, Mode.TEST)
                .get("/accounts?q=" + "q".repeat(201))
                .then()
                .statusCode(400)
                .body("error.details.parameter", equalTo("q"));
        as(workspace, Mode.TEST).get("/accounts?q=" + "q".repeat(200)).then().statusCode(200);
        as(workspace, Mode.TEST)
                .get("/accounts?limit=0")
                .then()
                .statusCode(400)
                .body("error.details.parameter", equalTo("limit"));
        as(workspace, Mode.TEST)
                .get("/accounts?limit=")
                .then()
                .statusCode(400)
                .body("error.details.parameter", equalTo("limit"));
        as(workspace, Mode.TEST)
                .get("/accounts?cursor=")
                .then()
                .statusCode(400)
                .body("error.details.parameter", equalTo("cursor"));
        // A filter sent without a value is a mistake, not "no filter"; only q's empty value means something.
        as(workspace, Mode.TEST)
                .get("/accounts?platform=")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("invalid_request"))
                .body("error.details.parameter", equalTo("platform"));
        as(workspace, Mode.TEST)
                .get("/accounts?profile_id=")
                .then()
                .statusCode(400)
                .body("error.details.parameter", equalTo("profile_id"));
        as(workspace, Mode.TEST).get("/accounts?q=").then().statusCode(200);
    }

    @Test
    void paginationWalksEveryAccountOnceAndTheCursorIsBoundToFiltersAndTenant() {
        List<String> created = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            created.add(0, create("{\"platform\":\"facebook\"}"));
        }
        List<String> seen = new ArrayList<>();
        String cursor = null;
        do {
            var page = as(workspace, Mode.TEST).queryParam("limit", 2);
            if (cursor != null) {
                page.queryParam("cursor", cursor);
            }
            var response = page.get("/accounts").then().statusCode(200).extract();
            seen.addAll(response.path("data.id"));
            cursor = response.path("meta.next_cursor");
        } while (cursor != null);
        assertThat(seen).isEqualTo(created);

        String next = as(workspace, Mode.TEST)
                .get("/accounts?limit=2")
                .then()
                .extract()
                .path("meta.next_cursor");
        as(workspace, Mode.TEST)
                .queryParam("cursor", next)
                .queryParam("platform", "facebook")
                .get("/accounts")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("invalid_cursor"));
        as(ResourceIds.newId(IdPrefix.WORKSPACE), Mode.TEST)
                .queryParam("cursor", next)
                .get("/accounts")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("invalid_cursor"));
        as(workspace, Mode.LIVE)
                .queryParam("cursor", next)
                .get("/accounts")
                .then()
                .statusCode(400);
        // The limit is not part of the cursor's scope: without it the rest comes as one default page.
        as(workspace, Mode.TEST)
                .queryParam("cursor", next)
                .get("/accounts")
                .then()
                .statusCode(200)
                .body("data", hasSize(3))
                .body("meta.has_more", equalTo(false));
    }

    @Test
    void patchMovesTheAccountBetweenProfilesHoldingTheNewOneAndReleasingTheOld() {
        String first = profile(Mode.TEST);
        String second = profile(Mode.TEST);
        String id = create("{\"platform\":\"linkedin\",\"profile_id\":\"" + first + "\"}");

        as(workspace, Mode.TEST)
                .body("{\"profile_id\":\"" + second + "\"}")
                .patch("/accounts/" + id)
                .then()
                .statusCode(200)
                .body("data.profile_id", equalTo(second))
                .body("data.status", equalTo("connected"));
        assertThat(FakeServices.holders(first)).isEmpty();
        assertThat(FakeServices.holders(second)).containsExactly(id);

        as(workspace, Mode.TEST)
                .body("{\"profile_id\":null}")
                .patch("/accounts/" + id)
                .then()
                .statusCode(200)
                .body("data.profile_id", nullValue());
        assertThat(FakeServices.holders(second)).isEmpty();
    }

    @Test
    void patchNeedsExactlyAProfileIdOfThisWorkspaceAndMode() {
        String id = create("{\"platform\":\"linkedin\"}");
        as(workspace, Mode.TEST)
                .body("{}")
                .patch("/accounts/" + id)
                .then()
                .statusCode(422)
                .body("error.details.errors[0].field", equalTo("profile_id"))
                .body("error.details.errors[0].code", equalTo("required"));
        as(workspace, Mode.TEST)
                .body("{\"profile_id\":null,\"name\":\"x\"}")
                .patch("/accounts/" + id)
                .then()
                .statusCode(422)
                .body("error.details.errors[0].field", equalTo("name"))
                .body("error.details.errors[0].code", equalTo("unknown_field"));
        as(workspace, Mode.TEST)
                .body("{\"profile_id\":42}")
                .patch("/accounts/" + id)
                .then()
                .statusCode(422)
                .body("error.details.errors[0].code", equalTo("invalid_type"));
        String liveProfile = profile(Mode.LIVE);
        as(workspace, Mode.TEST)
                .body("{\"profile_id\":\"" + liveProfile + "\"}")
                .patch("/accounts/" + id)
                .then()
                .statusCode(422)
                .body("error.details.errors[0].field", equalTo("profile_id"))
                .body("error.details.errors[0].code", equalTo("invalid_value"));
        assertThat(FakeServices.holders(liveProfile)).isEmpty();
        as(workspace, Mode.TEST).get("/accounts/" + id).then().body("data.profile_id", nullValue());
    }

    @Test
    void patchIsRefusedWhileAcceptedPostsArePending() {
        String target = profile(Mode.TEST);
        String id = create("{\"platform\":\"pinterest\"}");
        FakeServices.setPendingPosts(id, 2);
        as(workspace, Mode.TEST)
                .body("{\"profile_id\":\"" + target + "\"}")
                .patch("/accounts/" + id)
                .then()
                .statusCode(409)
                .body("error.code", equalTo("account_has_pending_posts"))
                .body("error.details.account_id", equalTo(id))
                .body("error.details.pending_posts", equalTo(2));
        assertThat(FakeServices.holders(target)).isEmpty();
        as(workspace, Mode.TEST).get("/accounts/" + id).then().body("data.profile_id", nullValue());

        FakeServices.setPendingPosts(id, 0);
        as(workspace, Mode.TEST)
                .body("{\"profile_id\":\"" + target + "\"}")
                .patch("/accounts/" + id)
                .then()
                .statusCode(200)
                .body("data.profile_id", equalTo(target));
    }

    @Test
    void patchLiftsItsFenceWhetherTheMoveCommittedOrFailed() {
        String id = create("{\"platform\":\"pinterest\"}");
        // Refused by profiles-service after the fence was put up: a profile of the other mode.
        as(workspace, Mode.TEST)
                .body("{\"profile_id\":\"" + profile(Mode.LIVE) + "\"}")
                .patch("/accounts/" + id)
                .then()
                .statusCode(422);
        assertThat(FakeServices.fences(id)).hasSize(1).doesNotContainValue(false);

        FakeServices.setPendingPosts(id, 1);
        String target = profile(Mode.TEST);
        as(workspace, Mode.TEST)
                .body("{\"profile_id\":\"" + target + "\"}")
                .patch("/accounts/" + id)
                .then()
                .statusCode(409);
        assertThat(FakeServices.fences(id)).hasSize(2).doesNotContainValue(false);

        FakeServices.setPendingPosts(id, 0);
        as(workspace, Mode.TEST)
                .body("{\"profile_id\":\"" + target + "\"}")
                .patch("/accounts/" + id)
                .then()
                .statusCode(200);
        assertThat(FakeServices.fences(id)).hasSize(3).doesNotContainValue(false);
    }

    @Test
    void aMoveTooLateToCommitWithinItsFenceIsRefusedAndWritesNothing() {
        String id = create("{\"platform\":\"pinterest\"}");
        String target = profile(Mode.TEST);
        // The fence ends within the margin the commit needs: a post that began after it may read the old profile.
        FakeServices.setFenceExpiry(id, Instant.now().plusSeconds(5));
        moving(id, target).statusCode(503).body("error.code", equalTo("service_unavailable"));
        as(workspace, Mode.TEST).get("/accounts/" + id).then().body("data.profile_id", nullValue());
        assertThat(FakeServices.holders(target)).isEmpty();
        assertThat(FakeServices.fences(id)).hasSize(1).doesNotContainValue(false);

        FakeServices.setFenceExpiry(id, Instant.now().plusSeconds(30));
        moving(id, target).statusCode(200).body("data.profile_id", equalTo(target));
    }

    private ValidatableResponse moving(String id, String profileId) {
        return as(workspace, Mode.TEST)
                .body("{\"profile_id\":\"" + profileId + "\"}")
                .patch("/accounts/" + id)
                .then();
    }

    @Test
    void patchFailsCleanlyWhenPostsServiceCannotAnswer() {
        String id = create("{\"platform\":\"pinterest\"}");
        FakeServices.postsDown = true;
        try {
            as(workspace, Mode.TEST)
                    .body("{\"profile_id\":null}")
                    .patch("/accounts/" + id)
                    .then()
                    .statusCode(200);
            String target = profile(Mode.TEST);
            as(workspace, Mode.TEST)
                    .body("{\"profile_id\":\"" + target + "\"}")
                    .patch("/accounts/" + id)
                    .then()
                    .statusCode(503)
                    .body("error.code", equalTo("service_unavailable"));
        } finally {
            FakeServices.postsDown = false;
        }
    }

    @Test
    void disconnectKeepsTheAccountFreesTheSlotAndIsIdempotent() {
        String profile = profile(Mode.TEST);
        String id = create("{\"platform\":\"tiktok\",\"profile_id\":\"" + profile + "\"}");
        String disconnectedAt = as(workspace, Mode.TEST)
                .delete("/accounts/" + id)
                .then()
                .statusCode(200)
                .body("data.id", equalTo(id))
                .body("data.status", equalTo("disconnected"))
                .body("data.profile_id", equalTo(profile))
                .body("data.disconnected_at", notNullValue())
                .extract()
                .path("data.disconnected_at");
        assertThat(FakeServices.connected(workspace, "test")).isEmpty();
        // Still assigned, so it still holds its profile (spec: accounts must be moved or unassigned first).
        assertThat(FakeServices.holders(profile)).containsExactly(id);
        as(workspace, Mode.TEST)
                .delete("/accounts/" + id)
                .then()
                .statusCode(200)
                .body("data.disconnected_at", equalTo(disconnectedAt));
        as(workspace, Mode.TEST).get("/accounts").then().body("data[0].status", equalTo("disconnected"));
    }
}
