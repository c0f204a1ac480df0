package dev.herald.gateway.rest;

import static io.restassured.RestAssured.given;

import dev.herald.gateway.AdminApi;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A browser's view of the dashboard for {@code @QuarkusTest}s: a workspace made with the admin API, a member signed in
 * through a one-time link, and the session cookie and CSRF token every later request carries.
 */
final class DashboardVisitor {
    static final String ADMIN = AdminApi.ADMIN;
    private static final Pattern CSRF = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"");

    final String workspaceId;
    final String memberId;
    final String session;

    private DashboardVisitor(String workspaceId, String memberId, String session) {
        this.workspaceId = workspaceId;
        this.memberId = memberId;
        this.session = session;
    }

    /** A new workspace with one member of {@code role}, signed in. */
    static DashboardVisitor signedInToNewWorkspace(String role) {
        String workspace = AdminApi.newWorkspace("Acme");
        return signedIn(workspace, role);
    }

    /** Another member of {@code role} in {@code workspace}, signed in. */
    static DashboardVisitor signedIn(String workspace, String role) {
        String email = role + "-" + System.nanoTime() + "@example.org";
        String member = given().header("Authorization", ADMIN)
                .contentType(ContentType.JSON)
                .body(Map.of("email", email, "role", role))
                .post("/admin/v1/workspaces/" + workspace + "/members")
                .then()
                .statusCode(201)
                .extract()
                .path("data.id");
        String link = given().header("Authorization", ADMIN)
                .contentType(ContentType.JSON)
                .post("/admin/v1/workspaces/" + workspace + "/members/" + member + "/sign-in-links")
                .then()
                .statusCode(201)
                .extract()
                .path("data.url");
        String path = link.substring(link.indexOf("/dashboard/"));
        String session = given().redirects()
                .follow(false)
                .get(path)
                .then()
                .statusCode(303)
                .extract()
                .cookie(DashboardResponses.COOKIE);
        return new DashboardVisitor(workspace, member, session);
    }

    String base(String mode) {
        return "/dashboard/w/" + workspaceId + "/" + mode;
    }

    Response get(String path) {
        return given().redirects()
                .follow(false)
                .cookie(DashboardResponses.COOKIE, session)
                .get(path);
    }

    /** Submits a form of the page at {@code pagePath} with its CSRF token. */
    Response post(String pagePath, String action, Map<String, ?> fields) {
        String csrf = csrfOf(get(pagePath).asString());
        return given().redirects()
                .follow(false)
                .cookie(DashboardResponses.COOKIE, session)
                .contentType(ContentType.URLENC)
                .formParam("csrf", csrf)
                .formParams(fields)
                .post(action);
    }

    /** Uploads {@code content} as the file field of the multipart form at {@code pagePath}, with its CSRF token. */
    Response upload(String pagePath, String action, String fileName, byte[] content, String contentType) {
        String csrf = csrfOf(get(pagePath).asString());
        return given().redirects()
                .follow(false)
                .cookie(DashboardResponses.COOKIE, session)
                .multiPart("csrf", csrf)
                .multiPart("file", fileName, content, contentType)
                .post(action);
    }

    static String csrfOf(String html) {
        Matcher matcher = CSRF.matcher(html);
        if (!matcher.find()) {
            throw new AssertionError("no CSRF token on the page:\n" + html);
        }
        return matcher.group(1);
    }
}
