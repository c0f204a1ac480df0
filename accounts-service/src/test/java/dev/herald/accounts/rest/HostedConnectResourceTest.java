package dev.herald.accounts.rest;

import static dev.herald.accounts.rest.ConnectSessionResourceTest.as;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;

import dev.herald.accounts.provider.FakeLinkedInProvider;
import dev.herald.accounts.service.ConnectBrowserBinding;
import dev.herald.common.auth.Mode;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.net.URI;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "accounts_test"))
@WithTestResource(value = ConnectFakeUpstreams.class, scope = TestResourceScope.MATCHING_RESOURCES)
class HostedConnectResourceTest {
    private static final Pattern CSRF = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"");
    private static final String FORM = "application/x-www-form-urlencoded";

    @Inject
    FakeLinkedInProvider linkedIn;

    private String workspace;
    private String profile;

    @BeforeEach
    void newWorkspace() {
        workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
        profile = ResourceIds.newId(IdPrefix.PROFILE);
    }

    /** A session's id and the path of its private link. */
    private record Link(String id, String path) {}

    private Link newLink(Mode mode, String body) {
        var created = as(workspace, mode)
                .body(body)
                .post("/connect-sessions")
                .then()
                .statusCode(201)
                .extract();
        return new Link(
                created.path("data.id"),
                URI.create(created.<String>path("data.url")).getPath());
    }

    private Link newLink(Mode mode) {
        return newLink(mode, "{\"profile_id\":\"" + profile + "\"}");
    }

    /** The browser's state after opening a link: its binding cookie and the page's CSRF token. */
    private record Browser(String cookie, String csrf) {}

    private Browser open(Link link) {
        Response page = given().get(link.path());
        page.then().statusCode(200);
        return new Browser(page.getCookie(ConnectBrowserBinding.COOKIE), csrfOf(page.asString()));
    }

    private static String csrfOf(String html) {
        Matcher matcher = CSRF.matcher(html);
        assertThat(matcher.find()).as("a CSRF token in the page").isTrue();
        return matcher.group(1);
    }

    private Response authorize(Link link, Browser browser, String platform, String name, String username) {
        var request = given().redirects()
                .follow(false)
                .contentType(FORM)
                .formParam("csrf", browser.csrf())
                .formParam("platform", platform)
                .formParam("name", name)
                .formParam("username", username);
        if (browser.cookie() != null) {
            request.cookie(ConnectBrowserBinding.COOKIE, browser.cookie());
        }
        return request.post("/connect/sessions/" + link.id() + "/authorize");
    }

    @Test
    void theLinkShowsTheOfferedPlatformsAndBindsTheBrowserWithAStrictCookie() {
        Link link =
                newLink(Mode.TEST, "{\"profile_id\":\"" + profile + "\",\"platforms\":[\"pinterest\",\"youtube\"]}");
        Response page = given().get(link.path());
        page.then()
                .statusCode(200)
                .contentType(containsString("text/html"))
                .header("Content-Security-Policy", containsString("frame-ancestors 'none'"))
                .header("Content-Security-Policy", containsString("default-src 'none'"))
                .header("X-Content-Type-Options", "nosniff")
                .header("Referrer-Policy", "no-referrer")
                .header("Cache-Control", "no-store")
                .body(containsString("<h1>Connect your social accounts</h1>"))
                .body(containsString("Authorize Pinterest"))
                .body(containsString("Authorize YouTube"))
                .body(not(containsString("Authorize TikTok")))
                .body(containsString("<label for=\"username-pinterest\">"));
        String setCookie = page.getHeader("Set-Cookie");
        assertThat(setCookie)
                .startsWith(ConnectBrowserBinding.COOKIE + "=")
                .contains("HttpOnly")
                .contains("SameSite=Lax")
                .contains("Path=/connect")
                // The public URL in these tests is http://127.0.0.1, where a Secure cookie would be dropped.
                .doesNotContain("Secure");
        String nonce = page.getHeader("Content-Security-Policy").replaceAll(".*'nonce-([^']+)'.*", "$1");
        assertThat(page.asString()).contains("<style nonce=\"" + nonce + "\">");
    }

    @Test
    void framingIsAllowedOnlyForTheConfiguredEmbedOrigin() {
        Link link = newLink(
                Mode.TEST, "{\"profile_id\":\"" + profile + "\",\"embed_origin\":\"https://app.example.com:8443\"}");
        given().get(link.path())
                .then()
                .statusCode(200)
                .header("Content-Security-Policy", containsString("frame-ancestors https://app.example.com:8443"));
    }

    @Test
    void twoSimulatedAuthorizationsConnectTwoAccountsThatTheSessionLists() {
        Link link = newLink(Mode.TEST);
        Browser browser = open(link);
        Response first = authorize(link, browser, "tiktok", "Ada Lovelace", "ada");
        // Under the public URL (the gateway's), never this service's own address, which browsers cannot reach.
        first.then()
                .statusCode(303)
                .header(
                        "Location",
                        startsWith("http://127.0.0.1:18080/connect/sessions/" + link.id() + "?connected=acc_"));
        authorize(link, browser, "youtube", "Grace Hopper", "grace").then().statusCode(303);

        List<String> accountIds = as(workspace, Mode.TEST)
                .get("/connect-sessions/" + link.id())
                .then()
                .statusCode(200)
                .body("data.account_ids", hasSize(2))
                .body("data.status", equalTo("open"))
                .extract()
                .path("data.account_ids");
        given().cookie(ConnectBrowserBinding.COOKIE, browser.cookie())
                .get(URI.create(first.getHeader("Location")).toString().replaceFirst("^https?://[^/]+", ""))
                .then()
                .statusCode(200)
                .body(containsString("Connected TikTok account <bdi>Ada Lovelace</bdi> (<bdi>@ada</bdi>)."))
                .body(containsString("data-account-id=\"" + accountIds.get(0) + "\""))
                .body(containsString("data-account-id=\"" + accountIds.get(1) + "\""))
                // The YouTube account's legal step is offered until the owner accepts.
                .body(containsString("YouTube analytics: one more step for <bdi>Grace Hopper</bdi>"));

        // Authorizing the same username again re-authorizes the same account.
        authorize(link, browser, "tiktok", "Ada L.", "ada").then().statusCode(303);
        as(workspace, Mode.TEST)
                .get("/connect-sessions/" + link.id())
                .then()
                .body("data.account_ids", equalTo(accountIds));
    }

    @Test
    void reauthorizingAnAccountTheSessionListsNamesThatAccountNotTheLatestOne() {
        Link link = newLink(Mode.TEST);
        Browser browser = open(link);
        String youtube = query(
                authorize(link, browser, "youtube", "Channel One", "channel1").getHeader("Location"), "connected");
        String tiktok = query(authorize(link, browser, "tiktok", "Ada", "ada").getHeader("Location"), "connected");
        assertThat(tiktok).isNotEqualTo(youtube);

        String again = authorize(link, browser, "youtube", "Channel One Again", "channel1")
                .then()
                .statusCode(303)
                .extract()
                .header("Location");
        assertThat(query(again, "connected")).isEqualTo(youtube);
        given().cookie(ConnectBrowserBinding.COOKIE, browser.cookie())
                .get(again.replaceFirst("^https?://[^/]+", ""))
                .then()
                .statusCode(200)
                .body(containsString("Connected YouTube account <bdi>Channel One Again</bdi> (<bdi>@channel1</bdi>)."));
    }

    @Test
    void aDisplayNameWithANulCharacterIsRefusedOnThePageNotWithAServerError() {
        Link link = newLink(Mode.TEST);
        Browser browser = open(link);
        authorize(link, browser, "tiktok", "Ada\u0000", "ada")
                .then()
                .statusCode(422)
                .contentType(containsString("text/html"))
                .body(containsString("Enter a display name and a username"));
        as(workspace, Mode.TEST).get("/connect-sessions/" + link.id()).then().body("data.account_ids", hasSize(0));
    }

    @Test
    void aDisplayNameOfTenKilobytesIsRefusedOnThePageNotWithAServerError() {
        Link link = newLink(Mode.TEST);
        Browser browser = open(link);
        // The gateway admits hosted-page forms up to 64 KiB; no field within that may fail the form reader.
        authorize(link, browser, "tiktok", "A".repeat(60_000), "ada")
                .then()
                .statusCode(422)
                .contentType(containsString("text/html"))
                .body(containsString("Enter a display name and a username"));
        as(workspace, Mode.TEST).get("/connect-sessions/" + link.id()).then().body("data.account_ids", hasSize(0));
    }

    @Test
    void namesTheEndUserTypedAreIsolatedSoAnOverrideCannotReverseThePage() {
        Link link = newLink(Mode.TEST);
        Browser browser = open(link);
        // Each typed part in its own <bdi>: a right-to-left override inside one cannot reverse what follows it.
        authorize(link, browser, "tiktok", "Eve", "rtl").then().statusCode(303);
        given().cookie(ConnectBrowserBinding.COOKIE, browser.cookie())
                .get("/connect/sessions/" + link.id())
                .then()
                .statusCode(200)
                .body(containsString("TikTok: <bdi>Eve</bdi> (<bdi>@rtl</bdi>)</span>"));
    }

    @Test
    void refusedPageRequestsAreMeasuredUnderTheirRouteNotTheirPath() {
        String randomId = "cs_" + "ab12".repeat(6);
        given().contentType("text/plain").body("x").post("/connect/sessions/" + randomId + "/authorize");
        given().put("/connect/sessions/" + randomId + "/complete");
        given().post("/connect/" + randomId + "-token");
        String metrics =
                given().get("/q/metrics").then().statusCode(200).extract().asString();
        assertThat(metrics).doesNotContain(randomId).contains("uri=\"/connect/sessions/{id}/authorize\"");
    }

    @Test
    void aLinkWithANulCharacterIsAnUnknownLinkPage() {
        given().get("/connect/{token}", "abc\u0000def").then().statusCode(404).contentType(containsString("text/html"));
    }

    @Test
    void aLivePageOffersOnlyPlatformsWhoseOAuthClientIsConfigured() {
        // In these tests only LinkedIn has a client (FakeLinkedInProvider); the built-in providers have none.
        Link link = newLink(Mode.LIVE);
        Browser browser = open(link);
        given().cookie(ConnectBrowserBinding.COOKIE, browser.cookie())
                .get("/connect/sessions/" + link.id())
                .then()
                .statusCode(200)
                .body(containsString("Continue with LinkedIn"))
                .body(not(containsString("Continue with TikTok")))
                .body(not(containsString("id=\"no-platform\"")));
        authorize(link, browser, "tiktok", null, null)
                .then()
                .statusCode(503)
                .contentType(containsString("text/html"))
                .body(containsString("platform_unavailable"));

        Link tiktokOnly = newLink(Mode.LIVE, "{\"profile_id\":\"" + profile + "\",\"platforms\":[\"tiktok\"]}");
        given().get(tiktokOnly.path())
                .then()
                .statusCode(200)
                .body(containsString("id=\"no-platform\""))
                .body(not(containsString("Continue with")));
    }

    @Test
    void theYouTubeLegalStepRecordsConsentForTheAuthorizationThePageShowed() {
        Link link = newLink(Mode.TEST, "{\"profile_id\":\"" + profile + "\",\"platforms\":[\"youtube\"]}");
        Browser browser = open(link);
        String location =
                authorize(link, browser, "youtube", "Channel One", "channel1").getHeader("Location");
        String accountId = query(location, "connected");
        String page = given().cookie(ConnectBrowserBinding.COOKIE, browser.cookie())
                .get("/connect/sessions/" + link.id())
                .then()
                .statusCode(200)
                .extract()
                .asString();
        Matcher revision = Pattern.compile("name=\"revision\" value=\"(\\d+)\"").matcher(page);
        assertThat(revision.find()).isTrue();

        consent(link, browser, accountId, revision.group(1), null)
                .then()
                .statusCode(422)
                .body(containsString("Tick the box to accept"));
        as(workspace, Mode.TEST)
                .get("/accounts/" + accountId)
                .then()
                .body("data.analytics_consent.status", equalTo("required"));
        // A revision the owner never saw (the account was authorized again since) is not accepted.
        consent(link, browser, accountId, Long.toString(Long.parseLong(revision.group(1)) + 1), "yes")
                .then()
                .statusCode(409);

        consent(link, browser, accountId, revision.group(1), "yes")
                .then()
                .statusCode(303)
                .header(
                        "Location",
                        equalTo("http://127.0.0.1:18080/connect/sessions/" + link.id() + "?consented=" + accountId));
        as(workspace, Mode.TEST)
                .get("/accounts/" + accountId)
                .then()
                .statusCode(200)
                .body("data.analytics_consent.status", equalTo("accepted"))
                .body("data.analytics_consent.authorization_revision", equalTo(Integer.parseInt(revision.group(1))));
        given().cookie(ConnectBrowserBinding.COOKIE, browser.cookie())
                .queryParam("consented", accountId)
                .get("/connect/sessions/" + link.id())
                .then()
                .statusCode(200)
                .body(containsString("Analytics consent recorded for <bdi>Channel One</bdi>."))
                .body(not(containsString("name=\"revision\"")));
    }

    private Response consent(Link link, Browser browser, String accountId, String revision, String accept) {
        var request = given().redirects()
                .follow(false)
                .contentType(FORM)
                .cookie(ConnectBrowserBinding.COOKIE, browser.cookie())
                .formParam("csrf", browser.csrf())
                .formParam("account_id", accountId)
                .formParam("revision", revision);
        if (accept != null) {
            request.formParam("accept", accept);
        }
        return request.post("/connect/sessions/" + link.id() + "/analytics-consent");
    }

    @Test
    void finishingCompletesTheSessionAndReturnsToTheRedirectUrl() {
        Link link = newLink(
                Mode.TEST,
                "{\"profile_id\":\"" + profile + "\",\"redirect_url\":\"https://app.example.com/back?from=herald\"}");
        Browser browser = open(link);
        authorize(link, browser, "pinterest", "Pat", "pat").then().statusCode(303);
        given().redirects()
                .follow(false)
                .contentType(FORM)
                .cookie(ConnectBrowserBinding.COOKIE, browser.cookie())
                .formParam("csrf", browser.csrf())
                .post("/connect/sessions/" + link.id() + "/complete")
                .then()
                .statusCode(303)
                .header(
                        "Location",
                        equalTo("https://app.example.com/back?from=herald&connect_session_id=" + link.id()
                                + "&status=completed"));
        as(workspace, Mode.TEST).get("/connect-sessions/" + link.id()).then().body("data.status", equalTo("completed"));
        given().get(link.path()).then().statusCode(410).body(containsString("connect_session_completed"));
        authorize(link, browser, "tiktok", "Late", "late").then().statusCode(410);
    }

    @Test
    void revokedAndExpiredLinksAre410PagesAndRefuseAuthorization() {
        Link revoked = newLink(Mode.TEST);
        Browser revokedBrowser = open(revoked);
        as(workspace, Mode.TEST)
                .delete("/connect-sessions/" + revoked.id())
                .then()
                .statusCode(200);
        given().get(revoked.path())
                .then()
                .statusCode(410)
                .header("Content-Security-Policy", containsString("frame-ancestors 'none'"))
                .header("Cache-Control", "no-store")
                .body(containsString("connect_session_revoked"))
                .body(not(containsString("Authorize")));
        authorize(revoked, revokedBrowser, "tiktok", "Ada", "ada")
                .then()
                .statusCode(410)
                .body(containsString("connect_session_revoked"));

        Link expired = newLink(Mode.TEST);
        Browser expiredBrowser = open(expired);
        ConnectSessionResourceTest.expire(expired.id());
        given().get(expired.path()).then().statusCode(410).body(containsString("connect_session_expired"));
        authorize(expired, expiredBrowser, "tiktok", "Ada", "ada").then().statusCode(410);
        // Without the browser's cookie (gone with the session) the page still says what happened to the link.
        authorize(expired, new Browser(null, expiredBrowser.csrf()), "tiktok", "Ada", "ada")
                .then()
                .statusCode(410)
                .body(containsString("connect_session_expired"));
        as(workspace, Mode.TEST).get("/connect-sessions/" + expired.id()).then().body("data.account_ids", hasSize(0));
    }

    @Test
    void anotherBrowserOrAForgedFormIsRefused() {
        Link link = newLink(Mode.TEST);
        Browser browser = open(link);
        authorize(link, new Browser(null, browser.csrf()), "tiktok", "Eve", "eve")
                .then()
                .statusCode(403)
                .body(containsString("connect_session_browser_mismatch"));
        Browser stranger = open(newLink(Mode.TEST));
        authorize(link, new Browser(stranger.cookie(), stranger.csrf()), "tiktok", "Eve", "eve")
                .then()
                .statusCode(403);
        authorize(link, new Browser(browser.cookie(), "forged"), "tiktok", "Eve", "eve")
                .then()
                .statusCode(400);
        given().get("/connect/" + "A".repeat(43))
                .then()
                .statusCode(404)
                .body(containsString("connect_session_not_found"));
        as(workspace, Mode.TEST).get("/connect-sessions/" + link.id()).then().body("data.account_ids", hasSize(0));
    }

    @Test
    void aRefusedConnectionIsExplainedOnThePage() {
        workspace = ConnectFakeUpstreams.FULL_WORKSPACE;
        Link link = newLink(Mode.TEST);
        Browser browser = open(link);
        authorize(link, browser, "tiktok", "Ada", "ada")
                .then()
                .statusCode(409)
                .body(containsString("the account limit is reached"));
    }

    @Test
    void aNewConnectionsRefusalPageSaysWhenToRetry() {
        workspace = "ws_" + ResourceIds.newId(IdPrefix.WORKSPACE).substring(6) + "ddd";
        Link link = newLink(Mode.TEST);
        Browser browser = open(link);
        authorize(link, browser, "tiktok", "Ada", "ada")
                .then()
                .statusCode(429)
                .header("Retry-After", "3600")
                .body(containsString("No more new accounts can be connected this month."));
    }

    @Test
    void aGrantWhoseSecondIdentityMeetsTheLimitKeepsTheFirstInTheSession() {
        // One free slot; LinkedIn's grant holds a member and an organization.
        workspace = "ws_" + ResourceIds.newId(IdPrefix.WORKSPACE).substring(6) + "ee1";
        Link link = newLink(Mode.LIVE, "{\"profile_id\":\"" + profile + "\",\"platforms\":[\"linkedin\"]}");
        Browser browser = open(link);
        String state = query(authorize(link, browser, "linkedin", null, null).getHeader("Location"), "state");
        given().redirects()
                .follow(false)
                .cookie(ConnectBrowserBinding.COOKIE, browser.cookie())
                .queryParam("code", "good")
                .queryParam("state", state)
                .get("/connect/callback/linkedin")
                .then()
                .statusCode(409)
                .body(containsString("the account limit is reached"))
                .body(containsString("id=\"finish\""));
        List<String> listed = as(workspace, Mode.LIVE)
                .get("/connect-sessions/" + link.id())
                .then()
                .statusCode(200)
                .body("data.account_ids", hasSize(1))
                .extract()
                .path("data.account_ids");
        as(workspace, Mode.LIVE)
                .get("/accounts/" + listed.get(0))
                .then()
                .statusCode(200)
                .body("data.status", equalTo("connected"));
    }

    @Test
    void liveAuthorizationRoundTripIsBoundToSessionBrowserAndPkce() {
        Link link = newLink(Mode.LIVE, "{\"profile_id\":\"" + profile + "\",\"platforms\":[\"linkedin\"]}");
        Browser browser = open(link);
        String location = authorize(link, browser, "linkedin", null, null)
                .then()
                .statusCode(303)
                .header("Location", startsWith("https://linkedin.example/oauth/authorize?state="))
                .extract()
                .header("Location");
        String state = query(location, "state");
        String challenge = query(location, "code_challenge");
        assertThat(query(location, "redirect_uri")).isEqualTo("http://127.0.0.1:18080/connect/callback/linkedin");

        // The same state in another browser, or for another platform, is refused before anything is exchanged.
        Browser stranger = open(newLink(Mode.LIVE));
        given().redirects()
                .follow(false)
                .cookie(ConnectBrowserBinding.COOKIE, stranger.cookie())
                .queryParam("code", "good")
                .queryParam("state", state)
                .get("/connect/callback/linkedin")
                .then()
                .statusCode(403)
                .body(containsString("connect_session_browser_mismatch"));
        given().redirects()
                .follow(false)
                .cookie(ConnectBrowserBinding.COOKIE, browser.cookie())
                .queryParam("code", "good")
                .queryParam("state", state)
                .get("/connect/callback/tiktok")
                .then()
                .statusCode(403);

        given().redirects()
                .follow(false)
                .cookie(ConnectBrowserBinding.COOKIE, browser.cookie())
                .queryParam("code", "good")
                .queryParam("state", state)
                .get("/connect/callback/linkedin")
                .then()
                .statusCode(303)
                .header(
                        "Location",
                        startsWith("http://127.0.0.1:18080/connect/sessions/" + link.id() + "?connected=acc_"));
        assertThat(ConnectBrowserBinding.pkceChallenge(linkedIn.lastVerifier())).isEqualTo(challenge);
        assertThat(linkedIn.lastRedirectUri()).hasToString("http://127.0.0.1:18080/connect/callback/linkedin");
        as(workspace, Mode.LIVE).get("/connect-sessions/" + link.id()).then().body("data.account_ids", hasSize(2));
    }

    /**
     * OWASP API8:2023 / API3:2023: the provider's tokens of a live connection (sealed at rest) never reach a log
     * record, of any logger on any thread, nor any response, whether the exchange succeeds or is refused.
     */
    @Test
    void api8_aLiveConnectionsProviderTokensAppearInNoLogRecordAndNoResponse() {
        List<String> logged = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.logging.Handler capture = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord record) {
                String message = record instanceof org.jboss.logmanager.ExtLogRecord ext
                        ? ext.getFormattedMessage()
                        : record.getMessage();
                logged.add(message + (record.getThrown() == null ? "" : " " + record.getThrown()));
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        java.util.logging.Logger root = java.util.logging.Logger.getLogger("");
        root.addHandler(capture);
        List<String> responses = new java.util.ArrayList<>();
        try {
            java.util.logging.Logger.getLogger("dev.herald.canary").info("canary");
            Link link = newLink(Mode.LIVE, "{\"profile_id\":\"" + profile + "\",\"platforms\":[\"linkedin\"]}");
            Browser browser = open(link);
            String state =
                    query(authorize(link, browser, "linkedin", null, null).getHeader("Location"), "state");
            responses.add(given().redirects()
                    .follow(false)
                    .cookie(ConnectBrowserBinding.COOKIE, browser.cookie())
                    .queryParam("code", "good")
                    .queryParam("state", state)
                    .get("/connect/callback/linkedin")
                    .then()
                    .statusCode(303)
                    .extract()
                    .asString());
            responses.add(given().cookie(ConnectBrowserBinding.COOKIE, browser.cookie())
                    .get(link.path())
                    .asString());
            Link refused = newLink(Mode.LIVE, "{\"profile_id\":\"" + profile + "\",\"platforms\":[\"linkedin\"]}");
            Browser other = open(refused);
            String otherState =
                    query(authorize(refused, other, "linkedin", null, null).getHeader("Location"), "state");
            responses.add(given().redirects()
                    .follow(false)
                    .cookie(ConnectBrowserBinding.COOKIE, other.cookie())
                    .queryParam("code", "bad")
                    .queryParam("state", otherState)
                    .get("/connect/callback/linkedin")
                    .then()
                    .statusCode(502)
                    .extract()
                    .asString());
            responses.add(as(workspace, Mode.LIVE)
                    .get("/connect-sessions/" + link.id())
                    .then()
                    .statusCode(200)
                    .extract()
                    .asString());
            List<String> accounts = as(workspace, Mode.LIVE)
                    .get("/connect-sessions/" + link.id())
                    .path("data.account_ids");
            assertThat(accounts).hasSize(2);
            responses.add(as(workspace, Mode.LIVE)
                    .get("/accounts")
                    .then()
                    .statusCode(200)
                    .extract()
                    .asString());
            for (String account : accounts) {
                responses.add(as(workspace, Mode.LIVE)
                        .get("/accounts/" + account)
                        .then()
                        .statusCode(200)
                        .extract()
                        .asString());
                responses.add(as(workspace, Mode.LIVE)
                        .delete("/accounts/" + account)
                        .then()
                        .statusCode(200)
                        .extract()
                        .asString());
            }
        } finally {
            root.removeHandler(capture);
        }
        assertThat(logged).as("the capture sees what is logged").contains("canary");
        for (String token : List.of("access-good", "refresh-good", "access-bad")) {
            assertThat(logged).as("log records").noneMatch(line -> line.contains(token));
            assertThat(responses).as("responses").noneMatch(body -> body.contains(token));
        }
    }

    @Test
    void aCallbackAfterRevocationOrARefusedCodeConnectsNothing() {
        Link link = newLink(Mode.LIVE, "{\"profile_id\":\"" + profile + "\",\"platforms\":[\"linkedin\"]}");
        Browser browser = open(link);
        String state = query(authorize(link, browser, "linkedin", null, null).getHeader("Location"), "state");
        given().redirects()
                .follow(false)
                .cookie(ConnectBrowserBinding.COOKIE, browser.cookie())
                .queryParam("code", "bad")
                .queryParam("state", state)
                .get("/connect/callback/linkedin")
                .then()
                .statusCode(502)
                .body(containsString("provider_error"));
        given().redirects()
                .follow(false)
                .cookie(ConnectBrowserBinding.COOKIE, browser.cookie())
                .queryParam("error", "access_denied")
                .queryParam("state", state)
                .get("/connect/callback/linkedin")
                .then()
                .statusCode(400)
                .body(containsString("authorization_denied"));
        as(workspace, Mode.LIVE).delete("/connect-sessions/" + link.id()).then().statusCode(200);
        given().redirects()
                .follow(false)
                .cookie(ConnectBrowserBinding.COOKIE, browser.cookie())
                .queryParam("code", "good")
                .queryParam("state", state)
                .get("/connect/callback/linkedin")
                .then()
                .statusCode(410)
                .body(containsString("connect_session_revoked"));
        as(workspace, Mode.LIVE).get("/connect-sessions/" + link.id()).then().body("data.account_ids", hasSize(0));
    }

    private static String query(String url, String name) {
        for (String pair : URI.create(url).getRawQuery().split("&")) {
            if (pair.startsWith(name + "=")) {
                return java.net.URLDecoder.decode(
                        pair.substring(name.length() + 1), java.nio.charset.StandardCharsets.UTF_8);
            }
        }
        throw new AssertionError(name + " missing from " + url);
    }
}
