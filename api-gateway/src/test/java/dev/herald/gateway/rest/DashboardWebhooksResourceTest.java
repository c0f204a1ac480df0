package dev.herald.gateway.rest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;

import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "gateway_test"))
@QuarkusTestResource(value = WebhooksUpstream.class, restrictToAnnotatedClass = true)
class DashboardWebhooksResourceTest {
    private static final Pattern SECRET = Pattern.compile("id=\"(?:created|new)-secret\">(whsec_[A-Za-z0-9+/=]{44})<");
    private static final Pattern ENDPOINT_ID = Pattern.compile("webhooks/(whe_[a-f0-9]{24})\"");

    @Test
    void anOwnerRegistersAnEndpointAndSeesItsSecretOnlyOnce() {
        DashboardVisitor owner = DashboardVisitor.signedInToNewWorkspace("owner");
        String webhooks = owner.base("test") + "/webhooks";

        String created = owner.post(
                        webhooks,
                        webhooks,
                        Map.of(
                                "url",
                                "https://example.com/hooks",
                                "description",
                                "Orders",
                                "event",
                                List.of("post.published", "post.failed")))
                .then()
                .statusCode(201)
                .contentType(containsString("text/html"))
                .body(containsString("data-copy=\"created-secret\""))
                .extract()
                .asString();
        String secret = find(SECRET, created);
        String id = find(ENDPOINT_ID, created);
        assertThat(WebhooksUpstream.requestsMatching("POST /webhooks "))
                .anyMatch(request -> request.contains("\"events\":[\"post.published\",\"post.failed\"]")
                        && request.contains("\"description\":\"Orders\""));

        owner.get(webhooks)
                .then()
                .statusCode(200)
                .body(containsString("https://example.com/hooks"))
                .body(containsString("data-endpoint-id=\"" + id + "\""))
                .body(containsString("post.published, post.failed"))
                .body(not(containsString(secret)));
        owner.get(webhooks + "/" + id)
                .then()
                .statusCode(200)
                .body(containsString("Orders"))
                .body(not(containsString(secret)));
    }

    @Test
    void theServicesValidationComesBackBesideItsFieldWithTheEnteredValuesKept() {
        DashboardVisitor owner = DashboardVisitor.signedInToNewWorkspace("developer");
        String webhooks = owner.base("test") + "/webhooks";
        owner.post(
                        webhooks,
                        webhooks,
                        Map.of("url", "ftp://example.com/x", "description", "Kept", "event", "usage.threshold_reached"))
                .then()
                .statusCode(422)
                .contentType(containsString("text/html"))
                .body(containsString("id=\"url-error\">url must be an absolute https URL."))
                .body(containsString("value=\"ftp://example.com/x\" maxlength=\"2048\" required aria-invalid=\"true\""))
                .body(containsString("value=\"Kept\""))
                .body(containsString("value=\"usage.threshold_reached\" checked"))
                .body(not(containsString("whsec_")));
        owner.post(webhooks, webhooks, Map.of("url", "https://example.com/x"))
                .then()
                .statusCode(422)
                .body(containsString("id=\"events-error\">events must name at least one event."));
    }

    @Test
    void editingSendsDescriptionAndEventsAndShowsWhatWasWrongBesideTheField() {
        DashboardVisitor owner = DashboardVisitor.signedInToNewWorkspace("owner");
        String detail = register(owner);

        owner.post(detail, detail, Map.of("description", "Renamed", "event", List.of("post.canceled")))
                .then()
                .statusCode(303)
                .header("Location", containsString(detail + "?notice=changed"));
        assertThat(WebhooksUpstream.requestsMatching("PATCH " + detail.substring(detail.indexOf("/webhooks"))))
                .anyMatch(request -> request.endsWith("{\"description\":\"Renamed\",\"events\":[\"post.canceled\"]}"));
        owner.get(detail + "?notice=changed")
                .then()
                .statusCode(200)
                .body(containsString("id=\"notice\">Settings saved."))
                .body(containsString("id=\"endpoint-events\">post.canceled<"));

        owner.post(detail, detail, Map.of("description", "No events"))
                .then()
                .statusCode(422)
                .body(containsString("id=\"events-error\">events must name at least one event."))
                .body(containsString("value=\"No events\""));
    }

    @Test
    void rotatingAsksFirstThenShowsTheNewSecretOnce() {
        DashboardVisitor owner = DashboardVisitor.signedInToNewWorkspace("owner");
        String detail = register(owner);
        String rotate = detail + "/rotate-secret";
        owner.get(rotate).then().statusCode(200).body(containsString("id=\"confirm-rotate\""));
        String rotated = owner.post(rotate, rotate, Map.of())
                .then()
                .statusCode(201)
                .body(containsString("data-copy=\"new-secret\""))
                .extract()
                .asString();
        String secret = find(SECRET, rotated);
        owner.get(detail).then().statusCode(200).body(not(containsString(secret)));
    }

    @Test
    void aTestEventsDeliveryIsListedWithTheOthersAndAFailedOneCanBeRetried() {
        DashboardVisitor owner = DashboardVisitor.signedInToNewWorkspace("owner");
        String detail = register(owner);
        owner.post(detail, detail + "/test", Map.of())
                .then()
                .statusCode(303)
                .header("Location", containsString(detail + "?notice=tested"));
        String page = owner.get(detail + "?notice=tested")
                .then()
                .statusCode(200)
                .body(containsString("A webhook.test event is on its way"))
                .body(containsString("<code>webhook.test</code>"))
                .body(containsString("receiver exploded"))
                .body(containsString("data-response-status>500<"))
                .body(containsString("id=\"older\""))
                .body(not(containsString("post.published</code>")))
                .extract()
                .asString();
        owner.get(detail + "?cursor=older")
                .then()
                .statusCode(200)
                .body(containsString("<code>post.published</code>"))
                .body(not(containsString("id=\"older\"")));

        Matcher retry = Pattern.compile("action=\"([^\"]+/deliveries/(dlv_[a-f0-9]{24})/retry)\"")
                .matcher(page);
        assertThat(retry.find()).as("a failed delivery has a retry button").isTrue();
        owner.post(detail, retry.group(1), Map.of())
                .then()
                .statusCode(303)
                .header("Location", containsString("?notice=retried"));
        assertThat(WebhooksUpstream.requestsMatching("POST /deliveries/" + retry.group(2) + "/retry"))
                .hasSize(1);
    }

    @Test
    void disablingAsksFirst() {
        DashboardVisitor owner = DashboardVisitor.signedInToNewWorkspace("owner");
        String detail = register(owner);
        String disable = detail + "/disable";
        owner.get(disable).then().statusCode(200).body(containsString("id=\"confirm-disable\""));
        owner.post(disable, disable, Map.of())
                .then()
                .statusCode(303)
                .header("Location", containsString("/webhooks?disabled=whe_"));
        owner.get(detail)
                .then()
                .statusCode(200)
                .body(containsString("id=\"endpoint-status\">disabled<"))
                .body(not(containsString("id=\"send-test\"")));
    }

    @Test
    void aViewerReadsButCannotChangeAnything() {
        DashboardVisitor owner = DashboardVisitor.signedInToNewWorkspace("owner");
        String detail = register(owner);
        DashboardVisitor viewer = DashboardVisitor.signedIn(owner.workspaceId, "viewer");
        String webhooks = viewer.base("test") + "/webhooks";
        viewer.get(webhooks)
                .then()
                .statusCode(200)
                .body(containsString("https://example.com/hooks"))
                .body(not(containsString("id=\"create-endpoint\"")));
        viewer.get(detail)
                .then()
                .statusCode(200)
                .body(containsString("receiver exploded"))
                .body(not(containsString("id=\"edit-endpoint\"")))
                .body(not(containsString("/retry")))
                .body(not(containsString("id=\"send-test\"")));
        int before = WebhooksUpstream.REQUESTS.size();
        viewer.post(webhooks, webhooks, Map.of("url", "https://example.com/x", "event", "post.failed"))
                .then()
                .statusCode(403)
                .contentType(containsString("text/html"))
                .body(containsString("can see webhooks but not change them"));
        viewer.post(detail, detail, Map.of("event", "post.failed")).then().statusCode(403);
        viewer.post(detail, detail + "/test", Map.of()).then().statusCode(403);
        viewer.post(detail, detail + "/disable", Map.of()).then().statusCode(403);
        viewer.get(detail + "/rotate-secret").then().statusCode(403);
        assertThat(WebhooksUpstream.REQUESTS.subList(before, WebhooksUpstream.REQUESTS.size()))
                .allMatch(request -> request.startsWith("GET "));
    }

    @Test
    void aFormWithoutTheSessionsCsrfTokenIsRefused() {
        DashboardVisitor owner = DashboardVisitor.signedInToNewWorkspace("owner");
        given().redirects()
                .follow(false)
                .cookie(DashboardResponses.COOKIE, owner.session)
                .contentType(ContentType.URLENC)
                .formParam("csrf", "forged")
                .formParam("url", "https://example.com/forged")
                .formParam("event", "post.failed")
                .post(owner.base("test") + "/webhooks")
                .then()
                .statusCode(403)
                .body(containsString("This form has expired"));
        assertThat(WebhooksUpstream.REQUESTS).noneMatch(request -> request.contains("forged"));
    }

    /** Registers an endpoint through the page and answers its page's path. */
    private static String register(DashboardVisitor owner) {
        String webhooks = owner.base("test") + "/webhooks";
        String created = owner.post(
                        webhooks, webhooks, Map.of("url", "https://example.com/hooks", "event", "post.failed"))
                .then()
                .statusCode(201)
                .extract()
                .asString();
        return webhooks + "/" + find(ENDPOINT_ID, created);
    }

    private static String find(Pattern pattern, String html) {
        Matcher matcher = pattern.matcher(html);
        assertThat(matcher.find()).as(pattern + " in\n" + html).isTrue();
        return matcher.group(1);
    }
}
