package dev.herald.system;

import static dev.herald.system.RunningSuite.as;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The hosted connect page as a browser walks it in live mode: open the link, choose the platform, approve at the
 * provider fake's authorization page, come back through the gateway's callback. Cookies are kept as a browser keeps
 * them; every redirect is checked before it is followed.
 */
final class HostedConnect {
    private static final Pattern CSRF = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"");
    private static final Pattern SESSION_FORM = Pattern.compile("/connect/sessions/([A-Za-z0-9_]+)/authorize");

    private HostedConnect() {}

    /** A new live workspace's key and a profile of it, named {@code name}. */
    record LiveWorkspace(String key, String profile) {
        static LiveWorkspace create(String name) {
            // Scale, so that polling a post's progress stays within the per-minute limit (free allows 30).
            return create(name, "scale");
        }

        /** A new live workspace on {@code plan} (comp), its key and a profile named {@code name}. */
        static LiveWorkspace create(String name, String plan) {
            String workspace = RunningSuite.newWorkspace(name);
            RunningSuite.admin()
                    .body("{\"mode\":\"live\",\"plan\":\"" + plan + "\",\"plan_source\":\"comp\"}")
                    .put("/admin/v1/workspaces/" + workspace + "/plan")
                    .then()
                    .statusCode(200);
            String key = RunningSuite.newKey(workspace, "live");
            String profile = as(key).contentType(ContentType.JSON)
                    .body("{\"name\":\"" + name + "\"}")
                    .post("/profiles")
                    .then()
                    .statusCode(201)
                    .extract()
                    .path("data.id");
            return new LiveWorkspace(key, profile);
        }

        /** {@code POST /posts} with {@code body} under a fresh Idempotency-Key; the accepted post's id. */
        String post(String body) {
            return as(key).contentType(ContentType.JSON)
                    .header("Idempotency-Key", UUID.randomUUID().toString())
                    .body(body)
                    .post("/posts")
                    .then()
                    .statusCode(202)
                    .extract()
                    .path("data.id");
        }
    }

    /** Connects {@code platform} for the profile and answers the workspace's accounts afterwards. */
    static List<Map<String, Object>> connect(LiveWorkspace live, String platform) {
        Response created = createSession(live);
        if (created.statusCode() == 503) {
            // The transient answer while accounts-service's profile.events consumer first reads its backlog
            // (ConnectOnboardingIT has the story); a client retries it.
            created = createSession(live);
        }
        JsonPath session = created.then().statusCode(201).extract().jsonPath();
        assertThat(session.getString("data.mode")).isEqualTo("live");
        return authorize(live, session.getString("data.url"), platform);
    }

    /**
     * Follows an account's reconnect link ({@code account.reauth_required}'s {@code reconnect_url}) and authorizes
     * at the platform's fake again; answers the workspace's accounts afterwards.
     */
    static List<Map<String, Object>> reconnect(LiveWorkspace live, String reconnectUrl, String platform) {
        Response opened = RestAssured.given().redirects().follow(false).get(reconnectUrl);
        assertThat(opened.statusCode())
                .as("reconnect link answer: %s", opened.asString())
                .isEqualTo(303);
        return authorize(live, opened.header("Location"), platform);
    }

    /** Opens a session link, authorizes {@code platform} at its fake and comes back through the callback. */
    private static List<Map<String, Object>> authorize(LiveWorkspace live, String sessionUrl, String platform) {
        Response page = RestAssured.given().redirects().follow(false).get(sessionUrl);
        Map<String, String> cookies = page.cookies();
        String gateway = RunningSuite.get().gatewayUrl();
        Matcher form = SESSION_FORM.matcher(page.asString());
        assertThat(form.find()).as("the session page: %s", page.asString()).isTrue();
        String sessionId = form.group(1);
        Response sessionPage = RestAssured.given().cookies(cookies).get(gateway + "/connect/sessions/" + sessionId);
        Matcher csrf = CSRF.matcher(sessionPage.asString());
        assertThat(csrf.find()).as("the session page carries a CSRF token").isTrue();

        Response chosen = RestAssured.given()
                .redirects()
                .follow(false)
                .cookies(cookies)
                .contentType("application/x-www-form-urlencoded")
                .formParam("csrf", csrf.group(1))
                .formParam("platform", platform)
                .post(gateway + "/connect/sessions/" + sessionId + "/authorize");
        assertThat(chosen.statusCode()).isEqualTo(303);
        String authorization = chosen.header("Location");
        assertThat(authorization).startsWith(RunningSuite.get().providerFakesUrl() + "/" + platform + "/");

        Response approved = RestAssured.given()
                .redirects()
                .follow(false)
                .urlEncodingEnabled(false)
                .get(authorization);
        assertThat(approved.statusCode()).isEqualTo(302);
        String callback = approved.header("Location");
        assertThat(callback).startsWith(gateway + "/connect/callback/" + platform + "?");

        Response back = RestAssured.given()
                .redirects()
                .follow(false)
                .urlEncodingEnabled(false)
                .cookies(cookies)
                .get(callback);
        assertThat(back.statusCode()).as("callback answer: %s", back.asString()).isEqualTo(303);
        // Back to the session page through the gateway, where the browser came from, not accounts-service's own port.
        assertThat(back.header("Location")).startsWith(gateway + "/connect/sessions/" + sessionId + "?connected=acc_");

        return as(live.key())
                .get("/accounts")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("data");
    }

    /** The id of the connected account named {@code username}. */
    static String accountNamed(List<Map<String, Object>> accounts, String username) {
        return accounts.stream()
                .filter(account -> username.equals(account.get("username")))
                .findFirst()
                .map(account -> (String) account.get("id"))
                .orElseThrow(() -> new AssertionError("no account " + username + " among " + accounts));
    }

    private static Response createSession(LiveWorkspace live) {
        return as(live.key())
                .contentType(ContentType.JSON)
                .body("{\"profile_id\":\"" + live.profile() + "\"}")
                .post("/connect-sessions");
    }
}
