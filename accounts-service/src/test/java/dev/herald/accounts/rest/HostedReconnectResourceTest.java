package dev.herald.accounts.rest;

import static dev.herald.accounts.rest.ConnectSessionResourceTest.as;
import static dev.herald.accounts.support.AccountsTestSupport.count;
import static dev.herald.accounts.support.AccountsTestSupport.execute;
import static dev.herald.accounts.support.AccountsTestSupport.onVertx;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;

import dev.herald.accounts.model.AccountEntity;
import dev.herald.accounts.provider.ProviderGrant;
import dev.herald.accounts.service.AccountConnection;
import dev.herald.accounts.service.AccountConnections;
import dev.herald.accounts.service.ConnectBrowserBinding;
import dev.herald.accounts.service.ReconnectLinks;
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
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Reconnect links ({@code /connect/reconnect/<token>}) driven over HTTP as a browser follows them: each opens a session
 * bound to one account, whose page reconnects exactly that account (the same id), in test mode and live.
 */
@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "accounts_test"))
@WithTestResource(value = ConnectFakeUpstreams.class, scope = TestResourceScope.MATCHING_RESOURCES)
class HostedReconnectResourceTest {
    private static final Pattern CSRF = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"");
    private static final String PUBLIC_URL = "http://127.0.0.1:18080";

    @Inject
    AccountConnections connections;

    @Inject
    ReconnectLinks links;

    private String workspace;

    @BeforeEach
    void newWorkspace() {
        workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
    }

    private record Browser(String sessionId, String cookie, String csrf, String page) {}

    private String reconnectPath(String accountId, Mode mode) {
        String url = as(workspace, mode)
                .post("/accounts/" + accountId + "/reconnect-link")
                .then()
                .statusCode(200)
                .extract()
                .path("data.url");
        assertThat(url).startsWith(PUBLIC_URL + "/connect/reconnect/");
        return URI.create(url).getPath();
    }

    /** Follows a reconnect link as a browser does: the redirect to a new session's own link, then that page. */
    private Browser follow(String reconnectPath) {
        String location = given().redirects()
                .follow(false)
                .get(reconnectPath)
                .then()
                .statusCode(303)
                .header("Location", startsWith(PUBLIC_URL + "/connect/"))
                .extract()
                .header("Location");
        Response page = given().get(URI.create(location).getPath());
        page.then().statusCode(200);
        String html = page.asString();
        Matcher csrf = CSRF.matcher(html);
        assertThat(csrf.find()).isTrue();
        Matcher session =
                Pattern.compile("/connect/sessions/(cs_[a-f0-9]+)/authorize").matcher(html);
        assertThat(session.find()).isTrue();
        return new Browser(session.group(1), page.getCookie(ConnectBrowserBinding.COOKIE), csrf.group(1), html);
    }

    private Response authorize(Browser browser, String platform) {
        return given().redirects()
                .follow(false)
                .contentType("application/x-www-form-urlencoded")
                .cookie(ConnectBrowserBinding.COOKIE, browser.cookie())
                .formParam("csrf", browser.csrf())
                .formParam("platform", platform)
                .post("/connect/sessions/" + browser.sessionId() + "/authorize");
    }

    private String sandbox(String platform, String name, String username) {
        return as(workspace, Mode.TEST)
                .body("{\"platform\":\"" + platform + "\",\"name\":\"" + name + "\",\"username\":\"" + username + "\"}")
                .post("/accounts")
                .then()
                .statusCode(201)
                .extract()
                .path("data.id");
    }

    private static void reauthRequired(String accountId) throws Exception {
        execute(
                "update accounts set health_status = 'reauth_required', health_reason = 'invalid_grant: revoked'"
                        + " where id = ?",
                accountId);
    }

    private static String query(String url, String name) {
        for (String pair : URI.create(url).getRawQuery().split("&")) {
            if (pair.startsWith(name + "=")) {
                return pair.substring(name.length() + 1);
            }
        }
        return null;
    }

    @Test
    void aTestModeReconnectLinkReauthorizesThatAccountAndKeepsItsId() throws Exception {
        String account = sandbox("tiktok", "Ada Lovelace", "ada");
        reauthRequired(account);

        Browser browser = follow(reconnectPath(account, Mode.TEST));
        assertThat(browser.page())
                .contains("Reconnect <bdi>Ada Lovelace</bdi> (<bdi>@ada</bdi>) on TikTok")
                .contains("id=\"authorize-tiktok\"")
                .doesNotContain("id=\"authorize-youtube\"")
                // The account's own identity is re-authorized: nothing to type.
                .doesNotContain("name=\"username\"");

        String location =
                authorize(browser, "tiktok").then().statusCode(303).extract().header("Location");
        assertThat(query(location, "connected")).isEqualTo(account);
        as(workspace, Mode.TEST)
                .get("/accounts/" + account)
                .then()
                .statusCode(200)
                .body("data.status", equalTo("connected"))
                .body("data.health.status", equalTo("healthy"))
                .body("data.name", equalTo("Ada Lovelace"))
                .body("data.username", equalTo("ada"));
        as(workspace, Mode.TEST)
                .get("/connect-sessions/" + browser.sessionId())
                .then()
                .body("data.account_ids", equalTo(List.of(account)))
                .body("data.platforms", equalTo(List.of("tiktok")));
        assertThat(count(
                        "select count(*) from outbox where message_key = ? and payload->>'type' = 'account.reconnected'",
                        account))
                .isEqualTo(1);
        as(workspace, Mode.TEST).get("/accounts").then().body("data", hasSize(1));
    }

    @Test
    void aDisconnectedAccountsLinkConnectsTheSameAccountAgain() {
        String account = sandbox("youtube", "Channel", "channel");
        as(workspace, Mode.TEST).delete("/accounts/" + account).then().statusCode(200);

        Browser browser = follow(reconnectPath(account, Mode.TEST));
        authorize(browser, "youtube").then().statusCode(303);

        as(workspace, Mode.TEST)
                .get("/accounts/" + account)
                .then()
                .body("data.status", equalTo("connected"))
                .body("data.health.status", equalTo("healthy"));
    }

    @Test
    void anUnassignedAccountsSessionHasNoProfileAndAnAssignedOneItsAccountsProfile() throws Exception {
        String account = sandbox("tiktok", "Free", "free");
        Browser browser = follow(reconnectPath(account, Mode.TEST));
        as(workspace, Mode.TEST)
                .get("/connect-sessions/" + browser.sessionId())
                .then()
                .body("data.profile_id", equalTo(null))
                .body("data.status", equalTo("open"));
        assertThat(count(
                        "select count(*) from connect_sessions where id = ? and account_id = ?"
                                + " and expires_at between now() + interval '59 minutes' and now() + interval '61 minutes'",
                        browser.sessionId(),
                        account))
                .isEqualTo(1);

        String profile = ResourceIds.newId(IdPrefix.PROFILE);
        execute("update accounts set profile_id = ? where id = ?", profile, account);
        Browser assigned = follow(reconnectPath(account, Mode.TEST));
        as(workspace, Mode.TEST)
                .get("/connect-sessions/" + assigned.sessionId())
                .then()
                .body("data.profile_id", equalTo(profile));
    }

    @Test
    void anExpiredLinkIsA410PageAndAForgedOneA404Page() {
        String account = sandbox("tiktok", "Old", "old");
        AccountEntity row = new AccountEntity();
        row.id = account;
        row.workspaceId = workspace;
        row.mode = "test";
        String expired = URI.create(links.issue(row, Instant.now().minus(Duration.ofDays(8)))
                        .url())
                .getPath();
        given().redirects()
                .follow(false)
                .get(expired)
                .then()
                .statusCode(410)
                .contentType(containsString("text/html"))
                .body(containsString("connect_session_expired"));
        given().redirects()
                .follow(false)
                .get("/connect/reconnect/not-a-link")
                .then()
                .statusCode(404)
                .body(containsString("connect_session_not_found"));
        // A genuine link for an account its tenant does not have (another mode) opens nothing.
        row.mode = "live";
        given().redirects()
                .follow(false)
                .get(URI.create(links.issue(row, Instant.now()).url()).getPath())
                .then()
                .statusCode(404);
    }

    private String liveLinkedIn(String externalId, String username) {
        return onVertx(() -> connections.connect(new AccountConnection(
                        workspace,
                        Mode.LIVE,
                        null,
                        Platform.LINKEDIN,
                        externalId,
                        "Mia Member",
                        username,
                        new ProviderGrant(
                                "old-access-" + workspace,
                                null,
                                Instant.now().plusSeconds(3600),
                                null,
                                Set.of("w_member_social"),
                                "member-1"),
                        null)))
                .id();
    }

    private Response callback(Browser browser, String state) {
        return given().redirects()
                .follow(false)
                .cookie(ConnectBrowserBinding.COOKIE, browser.cookie())
                .queryParam("code", "good")
                .queryParam("state", state)
                .get("/connect/callback/linkedin");
    }

    @Test
    void aLiveReconnectConnectsOnlyTheAccountsOwnIdentityAmongThoseTheGrantYields() throws Exception {
        // The fake LinkedIn grants member-1 and organization 42; only the member is this link's account.
        String account = liveLinkedIn("urn:li:person:member-1", "mia");
        reauthRequired(account);

        Browser browser = follow(reconnectPath(account, Mode.LIVE));
        assertThat(browser.page()).contains("Reconnect <bdi>Mia Member</bdi> (<bdi>@mia</bdi>) on LinkedIn");
        String location = authorize(browser, "linkedin")
                .then()
                .statusCode(303)
                .header("Location", startsWith("https://linkedin.example/oauth/authorize?state="))
                .extract()
                .header("Location");

        String back = callback(browser, query(location, "state"))
                .then()
                .statusCode(303)
                .extract()
                .header("Location");
        assertThat(query(back, "connected")).isEqualTo(account);
        as(workspace, Mode.LIVE)
                .get("/connect-sessions/" + browser.sessionId())
                .then()
                .body("data.account_ids", equalTo(List.of(account)));
        as(workspace, Mode.LIVE)
                .get("/accounts/" + account)
                .then()
                .body("data.health.status", equalTo("healthy"))
                .body("data.status", equalTo("connected"));
        // The organization the same grant could manage was not connected by a link meant for one account.
        as(workspace, Mode.LIVE).get("/accounts").then().body("data", hasSize(1));
    }

    @Test
    void aLiveReconnectAuthorizedAsAnotherAccountChangesNothingAndNamesTheOneExpected() throws Exception {
        String account = liveLinkedIn("urn:li:person:someone-else", "sam");
        reauthRequired(account);

        Browser browser = follow(reconnectPath(account, Mode.LIVE));
        String location =
                authorize(browser, "linkedin").then().statusCode(303).extract().header("Location");
        callback(browser, query(location, "state"))
                .then()
                .statusCode(409)
                .contentType(containsString("text/html"))
                .body(containsString("reconnect_account_mismatch"))
                .body(containsString("Sign in on LinkedIn as <bdi>"))
                .body(containsString("(<bdi>@sam</bdi>), then try again."))
                .body(containsString("Nothing was changed"))
                .body(not(containsString("Acme Corp")));

        as(workspace, Mode.LIVE)
                .get("/connect-sessions/" + browser.sessionId())
                .then()
                .body("data.account_ids", hasSize(0));
        as(workspace, Mode.LIVE)
                .get("/accounts/" + account)
                .then()
                .body("data.health.status", equalTo("reauth_required"));
        as(workspace, Mode.LIVE).get("/accounts").then().body("data", hasSize(1));
    }
}
