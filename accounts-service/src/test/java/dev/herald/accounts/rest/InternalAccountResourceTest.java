package dev.herald.accounts.rest;

import static dev.herald.accounts.support.AccountsTestSupport.as;
import static dev.herald.accounts.support.AccountsTestSupport.onVertx;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.accounts.provider.ProviderException;
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
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code POST /internal/accounts/lookup}: the accounts a post names, as posts-service validates it. */
@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "accounts_test"))
@WithTestResource(value = FakeServices.class, scope = TestResourceScope.MATCHING_RESOURCES)
class InternalAccountResourceTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    AccountConnections connections;

    @Inject
    FakeProviders.TikTok tiktok;

    private String workspace;

    @BeforeEach
    void newWorkspace() {
        FakeServices.ensureStarted();
        workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
    }

    private String sandbox(String platform, String username) {
        return as(workspace, Mode.TEST)
                .body("{\"platform\":\"" + platform + "\",\"name\":\"Creator\",\"username\":\"" + username + "\"}")
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

    private static Response lookup(String workspaceId, Mode mode, String body) {
        return as(workspaceId, mode).body(body).post("/internal/accounts/lookup");
    }

    private static String ids(String... ids) {
        List<String> quoted = new ArrayList<>();
        for (String id : ids) {
            quoted.add("\"" + id + "\"");
        }
        return "{\"ids\":[" + String.join(",", quoted) + "]}";
    }

    private static JsonNode json(Response response) throws Exception {
        return JSON.readTree(response.asString());
    }

    @Test
    void lookupAnswersTheCallersAccountsInTheOrderAskedWhateverTheirStatus() throws Exception {
        String tiktokAccount = sandbox("tiktok", "creator.one");
        String instagram = sandbox("instagram", "insta.one");
        String youtube = sandbox("youtube", "tube.one");
        String formerTikTok = sandbox("tiktok", "gone.one");
        as(workspace, Mode.TEST).delete("/accounts/" + youtube).then().statusCode(200);
        as(workspace, Mode.TEST).delete("/accounts/" + formerTikTok).then().statusCode(200);
        String unknown = ResourceIds.newId(IdPrefix.ACCOUNT);

        JsonNode answer = json(lookup(
                        workspace,
                        Mode.TEST,
                        ids(youtube, unknown, instagram, "not-an-account", tiktokAccount, formerTikTok, tiktokAccount))
                .then()
                .statusCode(200)
                .extract()
                .response());
        JsonNode data = answer.get("data");
        assertThat(data).hasSize(4);
        assertThat(data.findValuesAsText("id")).containsExactly(youtube, instagram, tiktokAccount, formerTikTok);

        // Each account as GET /accounts/{id} shows it, disconnected ones included.
        for (JsonNode found : data) {
            String id = found.get("account").get("id").asText();
            JsonNode shown = json(as(workspace, Mode.TEST)
                    .get("/accounts/" + id)
                    .then()
                    .statusCode(200)
                    .extract()
                    .response());
            assertThat(found.get("account")).isEqualTo(shown.get("data"));
        }
        assertThat(data.get(0).get("account").get("status").asText()).isEqualTo("disconnected");
        assertThat(data.get(0)
                        .get("account")
                        .get("analytics_consent")
                        .get("status")
                        .asText())
                .isEqualTo("required");

        // Publishing options for connected TikTok accounts only: the same deterministic ones as the public read.
        JsonNode options = json(as(workspace, Mode.TEST)
                        .get("/accounts/" + tiktokAccount + "/publishing-options")
                        .then()
                        .statusCode(200)
                        .extract()
                        .response())
                .get("data");
        assertThat(data.get(2).get("publishing_options")).isEqualTo(options);
        assertThat(data.get(2).get("publishing_options").get("creator_username").asText())
                .isEqualTo("creator.one");
        assertThat(data.get(0).has("publishing_options")).isFalse();
        assertThat(data.get(1).has("publishing_options")).isFalse();
        assertThat(data.get(3).has("publishing_options")).isFalse();
        assertThat(data.get(3).get("account").get("status").asText()).isEqualTo("disconnected");
    }

    @Test
    void accountsOfAnotherWorkspaceOrModeAreAbsent() {
        String mine = sandbox("tiktok", "mine.one");
        String otherWorkspace = ResourceIds.newId(IdPrefix.WORKSPACE);
        lookup(otherWorkspace, Mode.TEST, ids(mine)).then().statusCode(200).body("data", hasSize(0));
        lookup(workspace, Mode.LIVE, ids(mine)).then().statusCode(200).body("data", hasSize(0));
        lookup(workspace, Mode.TEST, ids(mine))
                .then()
                .statusCode(200)
                .body("data", hasSize(1))
                .body("data[0].account.id", equalTo(mine));
    }

    @Test
    void liveTikTokAccountsCarryTheProvidersOptionsReadOnceThenCached() {
        String first = live(Platform.TIKTOK, "tt-lookup-1-" + workspace);
        String second = live(Platform.TIKTOK, "tt-lookup-2-" + workspace);
        int before = tiktok.calls.get();

        lookup(workspace, Mode.LIVE, ids(second, first))
                .then()
                .statusCode(200)
                .body("data", hasSize(2))
                .body("data[0].account.id", equalTo(second))
                .body("data[0].account.mode", equalTo("live"))
                .body("data[0].publishing_options.creator_nickname", equalTo("Live Creator"))
                .body("data[1].publishing_options.privacy_level_options", hasSize(2));
        assertThat(tiktok.calls.get() - before).isEqualTo(2);
        assertThat(tiktok.tokens).contains("tt-lookup-1-" + workspace, "tt-lookup-2-" + workspace);

        // Fresh in the cache now: neither the lookup nor the public read asks TikTok again.
        lookup(workspace, Mode.LIVE, ids(first, second))
                .then()
                .statusCode(200)
                .body("data[0].publishing_options.creator_nickname", equalTo("Live Creator"));
        as(workspace, Mode.LIVE)
                .get("/accounts/" + first + "/publishing-options")
                .then()
                .statusCode(200)
                .header("x-herald-cache", equalTo("hit"));
        assertThat(tiktok.calls.get() - before).isEqualTo(2);
    }

    @Test
    void aProviderThatCannotAnswerFailsTheLookupWithTheProviderError() {
        String account = live(Platform.TIKTOK, "tt-down-" + workspace);
        tiktok.failure = new ProviderException("internal_error", "TikTok is having a bad day", false, true);
        try {
            lookup(workspace, Mode.LIVE, ids(account))
                    .then()
                    .statusCode(502)
                    .body("error.code", equalTo("provider_error"))
                    .body("error.details.account_id", equalTo(account))
                    .body("error.details.provider_code", equalTo("internal_error"))
                    .body("error.details.reconnect_required", equalTo(false));
        } finally {
            tiktok.failure = null;
        }
        // Nothing was cached from the failure: the next lookup asks again and succeeds.
        lookup(workspace, Mode.LIVE, ids(account))
                .then()
                .statusCode(200)
                .body("data[0].publishing_options.creator_nickname", equalTo("Live Creator"));
    }

    @Test
    void badLookupBodiesAreRefusedFieldByField() {
        lookup(workspace, Mode.TEST, "{}")
                .then()
                .statusCode(422)
                .body("error.code", equalTo("validation_failed"))
                .body("error.details.errors[0].field", equalTo("ids"))
                .body("error.details.errors[0].code", equalTo("required"));
        lookup(workspace, Mode.TEST, "{\"ids\":[]}")
                .then()
                .statusCode(422)
                .body("error.details.errors[0].code", equalTo("too_short"));
        lookup(workspace, Mode.TEST, "{\"ids\":\"acc_1\"}")
                .then()
                .statusCode(422)
                .body("error.details.errors[0].code", equalTo("invalid_type"));
        String[] tooMany = new String[101];
        for (int i = 0; i < tooMany.length; i++) {
            tooMany[i] = ResourceIds.newId(IdPrefix.ACCOUNT);
        }
        lookup(workspace, Mode.TEST, ids(tooMany))
                .then()
                .statusCode(422)
                .body("error.details.errors", hasSize(1))
                .body("error.details.errors[0].code", equalTo("too_long"));
        lookup(workspace, Mode.TEST, "{\"ids\":[\"acc_1\",7,null],\"profile_id\":\"prf_1\"}")
                .then()
                .statusCode(422)
                .body("error.details.errors.field", containsInAnyOrder("ids[1]", "ids[2]", "profile_id"));
        lookup(workspace, Mode.TEST, "[\"acc_1\"]")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("invalid_request"));
        // A hundred ids is the most, and none need to exist.
        lookup(workspace, Mode.TEST, ids(java.util.Arrays.copyOf(tooMany, 100)))
                .then()
                .statusCode(200)
                .body("data", hasSize(0));
    }

    @Test
    void lookupNeedsAnInternalToken() {
        given().contentType("application/json")
                .body(ids(ResourceIds.newId(IdPrefix.ACCOUNT)))
                .post("/internal/accounts/lookup")
                .then()
                .statusCode(401)
                .body("error.code", equalTo("authentication_failed"));
    }
}
