package dev.herald.system;

import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A dashboard member as a browser without script is, over plain HTTP against the running suite: signed in through the
 * admin API's one-time link, then reading pages with the session cookie (redirects not followed, so tests see them) and
 * submitting their forms with the page's CSRF token. (api-gateway's {@code DashboardVisitor} is the same for its
 * {@code @QuarkusTest}s; {@link DashboardSession} is the same member in headless Chromium.)
 */
final class DashboardMember {
    static final String COOKIE = "herald_dashboard";
    private static final Pattern CSRF = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"");

    private final String memberId;
    private final String session;

    DashboardMember(String memberId, String session) {
        this.memberId = memberId;
        this.session = session;
    }

    /** A new member of {@code role} in the workspace, signed in. */
    static DashboardMember signIn(String workspaceId, String role) {
        String member = add(workspaceId, role + "-" + System.nanoTime() + "@example.org", role);
        String session = browser()
                .get(signInLink(workspaceId, member))
                .then()
                .statusCode(303)
                .extract()
                .cookie(COOKIE);
        assertThat(session).as("the sign-in link's session cookie").isNotBlank();
        return new DashboardMember(member, session);
    }

    /** Adds a member to the workspace through the admin API; its id. */
    static String add(String workspaceId, String email, String role) {
        return RunningSuite.admin()
                .body(Map.of("email", email, "role", role))
                .post("/admin/v1/workspaces/" + workspaceId + "/members")
                .then()
                .statusCode(201)
                .extract()
                .path("data.id");
    }

    /** The path of a new one-time sign-in link for the member, as {@code ./herald up} hands one out. */
    static String signInLink(String workspaceId, String memberId) {
        String link = RunningSuite.admin()
                .post("/admin/v1/workspaces/" + workspaceId + "/members/" + memberId + "/sign-in-links")
                .then()
                .statusCode(201)
                .extract()
                .path("data.url");
        return link.substring(link.indexOf("/dashboard/"));
    }

    String memberId() {
        return memberId;
    }

    /** The value of the session cookie. */
    String session() {
        return session;
    }

    /** A request with this member's session (redirects not followed). */
    RequestSpecification request() {
        return browser().cookie(COOKIE, session);
    }

    Response get(String path) {
        return request().get(path);
    }

    /** The HTML of the page at {@code path}, which must answer 200. */
    String page(String path) {
        return get(path).then().statusCode(200).extract().asString();
    }

    /** Submits a form of the page at {@code pagePath} to {@code action} with that page's CSRF token. */
    Response post(String pagePath, String action, Map<String, ?> fields) {
        String csrf = find(CSRF, get(pagePath).asString());
        return request()
                .contentType(ContentType.URLENC)
                .formParam("csrf", csrf)
                .formParams(fields)
                .post(action);
    }

    /** Reloads the page at {@code path} until it shows {@code expected}, for 30 s (what is done in the background). */
    String awaitPage(String path, String expected) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 30_000;
        String page = page(path);
        while (!page.contains(expected) && System.currentTimeMillis() < deadline) {
            Thread.sleep(500);
            page = page(path);
        }
        assertThat(page).contains(expected);
        return page;
    }

    /** The first group of {@code pattern}'s first match in {@code html}, which must have one. */
    static String find(Pattern pattern, String html) {
        Matcher matcher = pattern.matcher(html);
        assertThat(matcher.find()).as(pattern + " in\n" + html).isTrue();
        return matcher.group(1);
    }

    private static RequestSpecification browser() {
        return RestAssured.given()
                .baseUri(RunningSuite.get().gatewayUrl())
                .redirects()
                .follow(false);
    }
}
