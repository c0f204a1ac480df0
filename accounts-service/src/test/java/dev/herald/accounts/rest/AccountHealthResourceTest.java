package dev.herald.accounts.rest;

import static dev.herald.accounts.support.AccountsTestSupport.as;
import static dev.herald.accounts.support.AccountsTestSupport.execute;
import static dev.herald.accounts.support.AccountsTestSupport.sandbox;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.matchesPattern;

import dev.herald.accounts.support.FakeServices;
import dev.herald.common.auth.Mode;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Health as the API shows it: the {@code health=} filter, reconnect links on demand and in posting lookups. */
@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "accounts_test"))
@WithTestResource(value = FakeServices.class, scope = TestResourceScope.MATCHING_RESOURCES)
class AccountHealthResourceTest {
    private static final String RECONNECT_URL = "^http://127\\.0\\.0\\.1:\\d+/connect/reconnect/[A-Za-z0-9_.-]+$";

    private String workspace;

    @BeforeEach
    void newWorkspace() {
        FakeServices.ensureStarted();
        workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
    }

    private String create(String platform) {
        return sandbox(workspace, platform);
    }

    private static void expiresIn(String accountId, Duration left) throws Exception {
        execute(
                "update accounts set token_expires_at = ? where id = ?",
                Timestamp.from(Instant.now().plus(left)),
                accountId);
    }

    private static void reauthRequired(String accountId) throws Exception {
        execute(
                "update accounts set health_status = 'reauth_required', health_reason = 'invalid_grant: revoked'"
                        + " where id = ?",
                accountId);
    }

    @Test
    void listFiltersByHealthWithExpiringDerivedFromTheAccessEnd() throws Exception {
        String healthy = create("tiktok");
        String renewedLater = create("tiktok");
        expiresIn(renewedLater, Duration.ofDays(30));
        String expiring = create("youtube");
        expiresIn(expiring, Duration.ofDays(2));
        String broken = create("linkedin");
        reauthRequired(broken);
        String gone = create("facebook");
        as(workspace, Mode.TEST).delete("/accounts/" + gone).then().statusCode(200);

        as(workspace, Mode.TEST)
                .get("/accounts?health=healthy")
                .then()
                .statusCode(200)
                .body("data.id", contains(renewedLater, healthy))
                .body("data.health.status", contains("healthy", "healthy"));
        as(workspace, Mode.TEST)
                .get("/accounts?health=expiring")
                .then()
                .body("data.id", contains(expiring))
                .body("data[0].health.status", equalTo("expiring"));
        as(workspace, Mode.TEST)
                .get("/accounts?health=reauth_required")
                .then()
                .body("data.id", contains(broken))
                .body("data[0].health.reason", equalTo("invalid_grant: revoked"))
                .body("data[0].status", equalTo("connected"));
        as(workspace, Mode.TEST).get("/accounts?health=disconnected").then().body("data.id", contains(gone));
        as(workspace, Mode.TEST)
                .get("/accounts?health=healthy&platform=tiktok")
                .then()
                .body("data.id", containsInAnyOrder(healthy, renewedLater));
    }

    @Test
    void anUnknownHealthIsTheSameInvalidParameterAsTheOtherFilters() {
        for (String value : new String[] {"sick", "", "HEALTHY", "healthy,expiring"}) {
            as(workspace, Mode.TEST)
                    .queryParam("health", value)
                    .get("/accounts")
                    .then()
                    .statusCode(400)
                    .body("error.code", equalTo("invalid_request"))
                    .body("error.details.parameter", equalTo("health"));
        }
    }

    @Test
    void theCursorIsBoundToTheHealthFilter() {
        create("tiktok");
        create("tiktok");
        String next = as(workspace, Mode.TEST)
                .get("/accounts?health=healthy&limit=1")
                .then()
                .statusCode(200)
                .body("data", hasSize(1))
                .extract()
                .path("meta.next_cursor");
        as(workspace, Mode.TEST)
                .queryParam("cursor", next)
                .queryParam("health", "expiring")
                .get("/accounts")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("invalid_cursor"));
        as(workspace, Mode.TEST)
                .queryParam("cursor", next)
                .queryParam("health", "healthy")
                .get("/accounts")
                .then()
                .statusCode(200)
                .body("data", hasSize(1));
    }

    @Test
    void aReconnectLinkIsFreshSignedAndValidForSevenDays() {
        String account = create("tiktok");
        var first = as(workspace, Mode.TEST)
                .post("/accounts/" + account + "/reconnect-link")
                .then()
                .statusCode(200)
                .body("data.account_id", equalTo(account))
                .body("data.url", matchesPattern(RECONNECT_URL))
                .extract();
        Instant expiresAt = Instant.parse(first.path("data.expires_at"));
        assertThat(expiresAt)
                .isBetween(
                        Instant.now().plus(Duration.ofDays(7)).minusSeconds(60),
                        Instant.now().plus(Duration.ofDays(7)));
    }

    @Test
    void aReconnectLinkIsOnlyForTheCallersAccounts() {
        String account = create("tiktok");
        as(ResourceIds.newId(IdPrefix.WORKSPACE), Mode.TEST)
                .post("/accounts/" + account + "/reconnect-link")
                .then()
                .statusCode(404)
                .body("error.code", equalTo("not_found"));
        as(workspace, Mode.LIVE)
                .post("/accounts/" + account + "/reconnect-link")
                .then()
                .statusCode(404);
        as(workspace, Mode.TEST)
                .post("/accounts/" + ResourceIds.newId(IdPrefix.ACCOUNT) + "/reconnect-link")
                .then()
                .statusCode(404);
        as(workspace, Mode.TEST).post("/accounts/nope/reconnect-link").then().statusCode(404);
    }

    @Test
    void theLookupForAPostCarriesTheReconnectLinkOfBrokenAccountsOnly() throws Exception {
        String healthy = create("tiktok");
        String broken = create("tiktok");
        reauthRequired(broken);
        String gone = create("instagram");
        as(workspace, Mode.TEST).delete("/accounts/" + gone).then().statusCode(200);

        as(workspace, Mode.TEST)
                .body("{\"ids\":[\"" + healthy + "\",\"" + broken + "\",\"" + gone + "\"]}")
                .post("/internal/accounts/lookup")
                .then()
                .statusCode(200)
                .body("data.account.id", contains(healthy, broken, gone))
                .body("data[0].reconnect_url", equalTo(null))
                .body("data[0].publishing_options.creator_username", org.hamcrest.Matchers.notNullValue())
                .body("data[1].account.health.status", equalTo("reauth_required"))
                .body("data[1].reconnect_url", matchesPattern(RECONNECT_URL))
                .body("data[2].account.health.status", equalTo("disconnected"))
                .body("data[2].reconnect_url", matchesPattern(RECONNECT_URL));
    }
}
