package dev.herald.system;

import static dev.herald.system.RunningSuite.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The dashboard's profile and post pages against the real services, as a browser without script uses them: an owner
 * signed in through the admin API's one-time link sees what a key created, makes a connect link that opens, and
 * cancels a scheduled post, which the API then shows canceled.
 */
class DashboardPostsIT {
    private static final Pattern LINK = Pattern.compile("<code id=\"created-link-url\">([^<]+)</code>");

    @Test
    void anOwnerSeesProfilesAndPostsMakesAConnectLinkAndCancelsAScheduledPost() {
        DashboardWorkspace workspace = DashboardWorkspace.withLinkedInAccount("Dashboard posts IT");
        String key = workspace.key();
        String profile = workspace.profile();
        String account = workspace.account();
        String post = as(key).contentType(ContentType.JSON)
                .header("Idempotency-Key", UUID.randomUUID().toString())
                .body("{\"text\":\"Fresh bread at nine\",\"account_ids\":[\"" + account + "\"],\"scheduled_at\":\""
                        + Instant.now().plus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS) + "\"}")
                .post("/posts")
                .then()
                .statusCode(202)
                .extract()
                .path("data.id");
        DashboardMember owner = DashboardMember.signIn(workspace.id(), "owner");
        String base = workspace.base();

        owner.get(base + "/profiles")
                .then()
                .statusCode(200)
                .body(containsString("Corner Bakery"))
                .body(containsString("LinkedIn: Bakery Page <span class=\"muted\">@cornerbakery</span>"))
                .body(containsString("<span class=\"status connected\">connected</span>"));
        owner.get(base + "/posts")
                .then()
                .statusCode(200)
                .body(containsString("data-post-id=\"" + post + "\""))
                .body(containsString("Fresh bread at nine"));
        owner.get(base + "/posts?status=queued&platform=linkedin&profile_id=" + profile)
                .then()
                .statusCode(200)
                .body(containsString("data-post-id=\"" + post + "\""));
        owner.get(base + "/posts?platform=myspace")
                .then()
                .statusCode(422)
                .contentType(containsString("text/html"))
                .body(containsString("<p class=\"field-error\" id=\"platform-error\">platform must be one of"));

        // A connect link made on the profile's page opens the hosted connect page.
        String profilePage = base + "/profiles/" + profile;
        Response linkPage = owner.post(profilePage, profilePage + "/connect-links", Map.of("platform", "linkedin"));
        if (linkPage.statusCode() == 503) {
            // The API's transient answer while accounts-service first reads profile.events (ConnectOnboardingIT).
            linkPage = owner.post(profilePage, profilePage + "/connect-links", Map.of("platform", "linkedin"));
        }
        String url = DashboardMember.find(
                        LINK, linkPage.then().statusCode(201).extract().asString())
                .replace("&amp;", "&");
        assertThat(url).startsWith(RunningSuite.get().gatewayUrl() + "/connect/");
        // As a browser: the link sets the session's cookie and redirects to the session's page, which answers 200.
        Response opened = RestAssured.given().redirects().follow(false).get(url);
        if (opened.statusCode() / 100 == 3) {
            String location = opened.header("Location");
            opened = RestAssured.given()
                    .cookies(opened.cookies())
                    .get(location.startsWith("/") ? RunningSuite.get().gatewayUrl() + location : location);
        }
        opened.then().statusCode(200).contentType(containsString("text/html"));

        // The scheduled post, canceled after confirmation.
        String postPage = base + "/posts/" + post;
        owner.get(postPage)
                .then()
                .statusCode(200)
                .body(containsString("id=\"post-status\">queued"))
                .body(containsString("<td>LinkedIn</td>"))
                .body(containsString(account))
                .body(containsString("id=\"cancel-post\""));
        owner.get(postPage + "/cancel").then().statusCode(200).body(containsString("id=\"confirm-cancel\""));
        owner.post(postPage + "/cancel", postPage + "/cancel", Map.of())
                .then()
                .statusCode(303)
                .header("Location", containsString(postPage + "?canceled=true"));
        as(key).get("/posts/" + post).then().statusCode(200).body("data.status", equalTo("canceled"));
        owner.get(postPage)
                .then()
                .statusCode(200)
                .body(containsString("id=\"post-status\">canceled"))
                .body(containsString("<span class=\"status canceled\">canceled</span>"));
    }
}
