package dev.herald.system;

import static dev.herald.system.DashboardMember.find;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The dashboard's webhook pages against the real suite: a developer registers an endpoint pointing at a local
 * receiver, changes its events, sends a test event and sees its delivery with the receiver's status code, rotates the
 * secret (the receiver then checks the new one) and disables the endpoint, all through HTML pages and forms.
 */
class DashboardWebhooksIT {
    private static final Pattern SECRET = Pattern.compile("id=\"(?:created|new)-secret\">(whsec_[A-Za-z0-9+/=]{44})<");
    private static final Pattern ENDPOINT_ID = Pattern.compile("webhooks/(whe_[a-f0-9]{24})\"");

    private final WebhooksIT.Receiver receiver = new WebhooksIT.Receiver(n -> 202);

    DashboardWebhooksIT() throws Exception {}

    @AfterEach
    void closeReceiver() {
        receiver.close();
    }

    @Test
    void aDeveloperManagesAnEndpointFromRegistrationToDisabling() throws Exception {
        String workspace = RunningSuite.newWorkspace("Dashboard webhooks");
        DashboardMember developer = DashboardMember.signIn(workspace, "developer");
        String webhooks = DashboardSession.base(workspace, "test") + "/webhooks";

        String created = developer
                .post(
                        webhooks,
                        webhooks,
                        Map.of("url", receiver.url(), "description", "From the dashboard", "event", "post.published"))
                .then()
                .statusCode(201)
                .extract()
                .asString();
        String secret = find(SECRET, created);
        String detail = webhooks + "/" + find(ENDPOINT_ID, created);
        developer
                .get(webhooks)
                .then()
                .statusCode(200)
                .body(containsString(receiver.url()))
                .body(not(containsString(secret)));

        developer
                .post(
                        detail,
                        detail,
                        Map.of("description", "Failures too", "event", List.of("post.published", "post.failed")))
                .then()
                .statusCode(303);
        developer
                .get(detail)
                .then()
                .statusCode(200)
                .body(containsString("id=\"endpoint-events\">post.published, post.failed<"))
                .body(containsString("Failures too"));
        developer
                .post(detail, detail, Map.of("description", "No events"))
                .then()
                .statusCode(422)
                .body(containsString("id=\"events-error\">events must name at least one of"));

        developer.post(detail, detail + "/test", Map.of()).then().statusCode(303);
        List<WebhooksIT.Receiver.Request> received = receiver.awaitRequests(1, 30_000);
        assertThat(received).hasSize(1);
        assertThat(received.get(0).verify(secret).getString("type")).isEqualTo("webhook.test");
        String page = developer.awaitPage(detail, "data-response-status>202<");
        assertThat(page).contains("<code>webhook.test</code>").contains("status succeeded");

        String rotate = detail + "/rotate-secret";
        developer.get(rotate).then().statusCode(200).body(containsString("id=\"confirm-rotate\""));
        String rotated = developer
                .post(rotate, rotate, Map.of())
                .then()
                .statusCode(201)
                .extract()
                .asString();
        String newSecret = find(SECRET, rotated);
        assertThat(newSecret).isNotEqualTo(secret);
        developer.post(detail, detail + "/test", Map.of()).then().statusCode(303);
        received = receiver.awaitRequests(2, 30_000);
        assertThat(received).hasSize(2);
        assertThat(received.get(1).signatureMatches(newSecret)).isTrue();

        String disable = detail + "/disable";
        developer.get(disable).then().statusCode(200).body(containsString("id=\"confirm-disable\""));
        developer.post(disable, disable, Map.of()).then().statusCode(303);
        developer
                .get(detail)
                .then()
                .statusCode(200)
                .body(containsString("id=\"endpoint-status\">disabled<"))
                .body(not(containsString("id=\"send-test\"")));
    }

    @Test
    void aViewerSeesEndpointsButIsRefusedChanges() throws Exception {
        String workspace = RunningSuite.newWorkspace("Dashboard webhooks viewer");
        DashboardMember viewer = DashboardMember.signIn(workspace, "viewer");
        String webhooks = DashboardSession.base(workspace, "test") + "/webhooks";
        viewer.get(webhooks).then().statusCode(200).body(not(containsString("id=\"create-endpoint\"")));
        viewer.post(webhooks, webhooks, Map.of("url", receiver.url(), "event", "post.published"))
                .then()
                .statusCode(403)
                .body(containsString("can see webhooks but not change them"));
    }
}
