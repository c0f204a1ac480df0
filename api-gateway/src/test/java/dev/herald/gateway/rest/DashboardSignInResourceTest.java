package dev.herald.gateway.rest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import dev.herald.gateway.AdminApi;
import dev.herald.gateway.proxy.EchoUpstream;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.util.Map;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "gateway_test"))
@QuarkusTestResource(EchoUpstream.class)
class DashboardSignInResourceTest {

    @Test
    void aSignInLinkOpensTheWorkspaceOnceWithASafeCookie() {
        long unique = System.nanoTime();
        String workspace = AdminApi.newWorkspace("Acme");
        String member = given().header("Authorization", DashboardVisitor.ADMIN)
                .contentType(ContentType.JSON)
                // An address no other test uses: a person who is a member of two workspaces gets to choose one.
                .body(Map.of("email", "Dev-" + unique + "@Example.org", "role", "developer"))
                .post("/admin/v1/workspaces/" + workspace + "/members")
                .then()
                .statusCode(201)
                .body("data.email", equalTo("dev-" + unique + "@example.org"))
                .body("data.role", equalTo("developer"))
                .extract()
                .path("data.id");
        String url = given().header("Authorization", DashboardVisitor.ADMIN)
                .post("/admin/v1/workspaces/" + workspace + "/members/" + member + "/sign-in-links")
                .then()
                .statusCode(201)
                .extract()
                .path("data.url");
        String path = url.substring(url.indexOf("/dashboard/"));

        Response first = given().redirects().follow(false).get(path);
        first.then().statusCode(303).header("Location", containsString("/dashboard"));
        String setCookie = first.getHeader("Set-Cookie");
        assertThat(setCookie)
                .contains("HttpOnly")
                .containsIgnoringCase("SameSite=Lax")
                .contains("Path=/dashboard");
        String session = first.getCookie(DashboardResponses.COOKIE);
        given().redirects()
                .follow(false)
                .cookie(DashboardResponses.COOKIE, session)
                .get("/dashboard")
                .then()
                .statusCode(303)
                .header("Location", containsString("/dashboard/w/" + workspace + "/test/usage"));

        // One time only.
        given().redirects().follow(false).get(path).then().statusCode(410).body(containsString("not valid"));
    }

    @Test
    void pagesWithoutASessionSendTheBrowserToSignIn() {
        given().redirects()
                .follow(false)
                .get("/dashboard/w/ws_000000000000000000000009/test/keys")
                .then()
                .statusCode(303)
                .header("Location", containsString("/dashboard/login"));
        given().get("/dashboard/login")
                .then()
                .statusCode(200)
                .header("Content-Security-Policy", containsString("default-src 'none'"))
                .header("Cache-Control", "no-store")
                .body(containsString("Sign in to Herald"));
    }

    @Test
    void signingOutEndsTheSession() {
        DashboardVisitor owner = DashboardVisitor.signedInToNewWorkspace("owner");
        String keys = owner.base("test") + "/keys";
        owner.post(keys, "/dashboard/logout", Map.of())
                .then()
                .statusCode(303)
                .header("Location", containsString("/dashboard/login"));
        owner.get(keys).then().statusCode(303).header("Location", containsString("/dashboard/login"));
    }

    @Test
    void unknownDashboardPathsAreAPageNotJson() {
        given().get("/dashboard/nothing/here").then().statusCode(404).contentType(containsString("text/html"));
    }

    @Test
    void theDashboardHasItsOwnWindowOf120RequestsAMinute() {
        DashboardVisitor owner = DashboardVisitor.signedInToNewWorkspace("owner");
        String keys = owner.base("live") + "/keys";
        // Up to the limit, whatever second of the minute the test starts in: the window may turn over once.
        int refusedAt = -1;
        for (int i = 1; i <= 242 && refusedAt < 0; i++) {
            if (owner.get(keys).statusCode() == 429) {
                refusedAt = i;
            }
        }
        assertThat(refusedAt).as("a request past 120 in a minute is refused").isGreaterThan(120);
        owner.get(keys)
                .then()
                .statusCode(429)
                .contentType(containsString("text/html"))
                .header("Retry-After", org.hamcrest.Matchers.matchesPattern("[1-9][0-9]?"))
                .header("X-RateLimit-Limit", "120");
        // The API keys' window of the same workspace and mode is another one: the dashboard spent nothing of it.
        String key = given().header("Authorization", DashboardVisitor.ADMIN)
                .contentType(ContentType.JSON)
                .body("{\"mode\":\"live\"}")
                .post("/admin/v1/workspaces/" + owner.workspaceId + "/api-keys")
                .then()
                .statusCode(201)
                .extract()
                .path("data.secret");
        given().header("Authorization", "Bearer " + key)
                .get("/api/v1/profiles")
                .then()
                .statusCode(200)
                .header("X-RateLimit-Remaining", org.hamcrest.Matchers.not("0"));
    }
}
