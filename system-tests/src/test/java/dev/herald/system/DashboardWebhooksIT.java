package dev.herald.system;

import static dev.herald.system.RunningSuite.admin;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;

import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The dashboard's webhook pages against the real suite: a developer registers an endpoint pointing at a local
 * receiver, changes its events, sends a test event and sees its delivery with the receiver's status code, rotates the
 * secret (the receiver then checks the new one) and disables the endpoint, all through HTML pages and forms.
 */
class DashboardWebhooksIT {
    private static final String COOKIE = "herald_dashboard";
    private static final Pattern CSRF = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"");
    private static final Pattern SECRET = Pattern.compile("id=\"(?:created|new)-secret\">(whsec_[A-Za-z0-9+/=]{44})<");
    private static final Pattern ENDPOINT_ID = Pattern.compile("webhooks/(whe_[a-f0-9]{24})\"");

    private final WebhooksIT.Receiver receiver = new WebhooksIT.Receiver(n -> 202);
    private String session;

    DashboardWebhooksIT() throws Exception {}

    @AfterEach
    void closeReceiver() {
        receiver.close();
    }

    @Test
    void aDeveloperManagesAnEndpointFromRegistrationToDisabling() throws Exception {
        String workspace = RunningSuite.newWorkspace("Dashboard webhooks");
        signIn(workspace, "developer");
        String webhooks = "/dashboard/w/" + workspace + "/test/webhooks";

        String created = post(
                        webhooks,
                        webhooks,
                        Map.of("url", receiver.url(), "description", "From the dashboard", "event", "post.published"))
                .then()
                .statusCode(201)
                .extract()
                .asString();
        String secret = find(SECRET, created);
        String detail = webhooks + "/" + find(ENDPOINT_ID, created);
        get(webhooks)
                .then()
                .statusCode(200)
                .body(containsString(receiver.url()))
                .body(not(containsString(secret)));

        post(detail, detail, Map.of("description", "Failures too", "event", List.of("post.published", "post.failed")))
                .then()
                .statusCode(303);
        get(detail)
                .then()
                .statusCode(200)
                .body(containsString("id=\"endpoint-events\">post.published, post.failed<"))
                .body(containsString("Failures too"));
        post(detail, detail, Map.of("description", "No events"))
                .then()
                .statusCode(422)
                .body(containsString("id=\"events-error\">events must name at least one of"));

        post(detail, detail + "/test", Map.of()).then().statusCode(303);
        List<WebhooksIT.Receiver.Request> received = receiver.awaitRequests(1, 30_000);
        assertThat(received).hasSize(1);
        assertThat(received.get(0).verify(secret).getString("type")).isEqualTo("webhook.test");
        String page = awaitPage(detail, "data-response-status>202<");
        assertThat(page).contains("<code>webhook.test</code>").contains("status succeeded");

        String rotate = detail + "/rotate-secret";
        get(rotate).then().statusCode(200).body(containsString("id=\"confirm-rotate\""));
        String rotated =
                post(rotate, rotate, Map.of()).then().statusCode(201).extract().asString();
        String newSecret = find(SECRET, rotated);
        assertThat(newSecret).isNotEqualTo(secret);
        post(detail, detail + "/test", Map.of()).then().statusCode(303);
        received = receiver.awaitRequests(2, 30_000);
        assertThat(received).hasSize(2);
        assertThat(received.get(1).signatureMatches(newSecret)).isTrue();

        String disable = detail + "/disable";
        get(disable).then().statusCode(200).body(containsString("id=\"confirm-disable\""));
        post(disable, disable, Map.of()).then().statusCode(303);
        get(detail)
                .then()
                .statusCode(200)
                .body(containsString("id=\"endpoint-status\">disabled<"))
                .body(not(containsString("id=\"send-test\"")));
    }

    @Test
    void aViewerSeesEndpointsButIsRefusedChanges() throws Exception {
        String workspace = RunningSuite.newWorkspace("Dashboard webhooks viewer");
        signIn(workspace, "viewer");
        String webhooks = "/dashboard/w/" + workspace + "/test/webhooks";
        get(webhooks).then().statusCode(200).body(not(containsString("id=\"create-endpoint\"")));
        post(webhooks, webhooks, Map.of("url", receiver.url(), "event", "post.published"))
                .then()
                .statusCode(403)
                .body(containsString("can see webhooks but not change them"));
    }

    private void signIn(String workspace, String role) {
        String member = admin().body(Map.of("email", role + "-" + System.nanoTime() + "@example.org", "role", role))
                .post("/admin/v1/workspaces/" + workspace + "/members")
                .then()
                .statusCode(201)
                .extract()
                .path("data.id");
        String link = admin().post("/admin/v1/workspaces/" + workspace + "/members/" + member + "/sign-in-links")
                .then()
                .statusCode(201)
                .extract()
                .path("data.url");
        session = browser()
                .get(link.substring(link.indexOf("/dashboard/")))
                .then()
                .statusCode(303)
                .extract()
                .cookie(COOKIE);
        assertThat(session).isNotBlank();
    }

    /** Reloads the page until it shows {@code expected} (deliveries are made in the background). */
    private String awaitPage(String path, String expected) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 30_000;
        String page = get(path).then().statusCode(200).extract().asString();
        while (!page.contains(expected) && System.currentTimeMillis() < deadline) {
            Thread.sleep(500);
            page = get(path).then().statusCode(200).extract().asString();
        }
        assertThat(page).contains(expected);
        return page;
    }

    private Response get(String path) {
        return browser().cookie(COOKIE, session).get(path);
    }

    /** Submits a form of the page at {@code pagePath} with that page's CSRF token. */
    private Response post(String pagePath, String action, Map<String, ?> fields) {
        String csrf = find(CSRF, get(pagePath).asString());
        return browser()
                .cookie(COOKIE, session)
                .contentType(ContentType.URLENC)
                .formParam("csrf", csrf)
                .formParams(fields)
                .post(action);
    }

    private static io.restassured.specification.RequestSpecification browser() {
        return RestAssured.given()
                .baseUri(RunningSuite.get().gatewayUrl())
                .redirects()
                .follow(false);
    }

    private static String find(Pattern pattern, String html) {
        Matcher matcher = pattern.matcher(html);
        assertThat(matcher.find()).as(pattern + " in\n" + html).isTrue();
        return matcher.group(1);
    }
}
