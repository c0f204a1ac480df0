package dev.herald.gateway.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;

import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "gateway_test"))
@QuarkusTestResource(value = CannedApiUpstream.class, restrictToAnnotatedClass = true)
class DashboardProfilesResourceTest {

    @Test
    void profilesAreListedWithTheirAccountsAndPagedWithTheApisCursor() {
        DashboardVisitor viewer = DashboardVisitor.signedInToNewWorkspace("viewer");
        String profiles = viewer.base("test") + "/profiles";

        String first = viewer.get(profiles)
                .then()
                .statusCode(200)
                .contentType(containsString("text/html"))
                .body(containsString("Acme Shop"))
                .body(containsString("customer-42"))
                .body(containsString(
                        "LinkedIn: Acme Brand <span class=\"muted\">@acmebrand</span> <span class=\"status connected\">connected</span>"
                                + " <span class=\"status reauth_required\">reauth required</span>"))
                .body(containsString("<span class=\"status disconnected\">disconnected</span>"))
                .body(not(containsString("Beta Store")))
                .extract()
                .asString();
        assertThat(CannedApiUpstream.requests)
                .anyMatch(request -> request.startsWith("GET /accounts?profile_id=" + CannedApiUpstream.ACME));
        assertThat(first).contains("href=\"" + profiles + "?cursor=page2\" id=\"next-page\"");

        viewer.get(profiles + "?cursor=page2")
                .then()
                .statusCode(200)
                .body(containsString("Beta Store"))
                .body(containsString("No accounts."))
                .body(not(containsString("id=\"next-page\"")));
    }

    @Test
    void aProfilesPageShowsItsAccountsAndAnUnknownProfileIsNotFound() {
        DashboardVisitor owner = DashboardVisitor.signedInToNewWorkspace("owner");
        String profiles = owner.base("test") + "/profiles";
        owner.get(profiles + "/" + CannedApiUpstream.ACME)
                .then()
                .statusCode(200)
                .body(containsString("id=\"profile-id\">" + CannedApiUpstream.ACME))
                .body(containsString("<td>@acmeclips</td>"))
                .body(containsString("<span class=\"status reauth_required\">reauth required</span><br>"
                        + "<span class=\"muted reason\">REVOKED_ACCESS_TOKEN: The token used in the request has been"
                        + " revoked by the user</span>"))
                .body(containsString("id=\"create-link\""));
        owner.get(profiles + "/prf_cccccccccccccccccccccccc")
                .then()
                .statusCode(404)
                .contentType(containsString("text/html"))
                .body(containsString("Not found"));
        owner.get(profiles + "/not%2Fan%2Fid").then().statusCode(404);
    }

    @Test
    void anOwnerCreatesAConnectLinkShownOnceWithItsExpiry() {
        DashboardVisitor owner = DashboardVisitor.signedInToNewWorkspace("owner");
        String page = owner.base("test") + "/profiles/" + CannedApiUpstream.ACME;
        CannedApiUpstream.bodies.clear();

        owner.post(
                        page,
                        page + "/connect-links",
                        Map.of("platform", List.of("linkedin", "tiktok"), "redirect_url", "", "expires_in", "600"))
                .then()
                .statusCode(201)
                .contentType(containsString("text/html"))
                .body(containsString("<code id=\"created-link-url\">" + CannedApiUpstream.CONNECT_URL + "</code>"))
                .body(containsString("data-copy=\"created-link-url\""))
                .body(containsString("datetime=\"2030-01-01T11:00:00Z\""));
        assertThat(CannedApiUpstream.bodies.peek().toString())
                .isEqualTo("{\"profile_id\":\"" + CannedApiUpstream.ACME
                        + "\",\"platforms\":[\"linkedin\",\"tiktok\"],\"expires_in\":600}");
    }

    @Test
    void anOwnerGetsAReconnectLinkForAnAccountOfTheProfileAndOnlyForOne() {
        DashboardVisitor owner = DashboardVisitor.signedInToNewWorkspace("owner");
        String page = owner.base("test") + "/profiles/" + CannedApiUpstream.ACME;
        String broken = "acc_aaaaaaaaaaaaaaaaaaaaaaa1";
        owner.get(page)
                .then()
                .statusCode(200)
                .body(containsString("action=\"" + page + "/accounts/" + broken + "/reconnect-link\""));

        owner.post(page, page + "/accounts/" + broken + "/reconnect-link", Map.of())
                .then()
                .statusCode(201)
                .contentType(containsString("text/html"))
                .body(containsString("<code id=\"reconnect-link-url\">http://127.0.0.1:8080/connect/reconnect/"
                        + "reconnect-token-of-" + broken + "</code>"))
                .body(containsString("datetime=\"2030-01-08T10:00:00Z\""));
        assertThat(CannedApiUpstream.requests).contains("POST /accounts/" + broken + "/reconnect-link");

        // An account that is not this profile's is not found, and nothing is asked of the API.
        int before = CannedApiUpstream.requests.size();
        owner.post(page, page + "/accounts/acc_zzzzzzzzzzzzzzzzzzzzzzz9/reconnect-link", Map.of())
                .then()
                .statusCode(404);
        assertThat(CannedApiUpstream.requests.stream().skip(before))
                .noneMatch(request -> request.contains("reconnect-link"));

        DashboardVisitor developer = DashboardVisitor.signedIn(owner.workspaceId, "developer");
        developer.get(page).then().statusCode(200).body(not(containsString("/reconnect-link")));
        developer
                .post(page, page + "/accounts/" + broken + "/reconnect-link", Map.of())
                .then()
                .statusCode(403);
    }

    @Test
    void theApisValidationErrorComesBackBesideItsFieldWithTheEnteredValues() {
        DashboardVisitor owner = DashboardVisitor.signedInToNewWorkspace("owner");
        String page = owner.base("test") + "/profiles/" + CannedApiUpstream.ACME;
        owner.post(
                        page,
                        page + "/connect-links",
                        Map.of(
                                "platform",
                                "pinterest",
                                "redirect_url",
                                "http://shop.example.com/back",
                                "expires_in",
                                "900"))
                .then()
                .statusCode(422)
                .contentType(containsString("text/html"))
                .body(containsString(
                        "<p class=\"field-error\" id=\"redirect_url-error\">redirect_url must be an absolute"))
                .body(containsString("value=\"http://shop.example.com/back\" maxlength=\"2048\""))
                .body(containsString("aria-invalid=\"true\" aria-describedby=\"redirect_url-error\""))
                .body(containsString("value=\"900\""))
                .body(containsString("value=\"pinterest\" checked"))
                .body(not(containsString("created-link-url")));
    }

    @Test
    void onlyOwnersCreateConnectLinks() {
        DashboardVisitor owner = DashboardVisitor.signedInToNewWorkspace("owner");
        DashboardVisitor developer = DashboardVisitor.signedIn(owner.workspaceId, "developer");
        String page = developer.base("test") + "/profiles/" + CannedApiUpstream.ACME;
        developer
                .get(page)
                .then()
                .statusCode(200)
                .body(not(containsString("id=\"create-link\"")))
                .body(allOf(
                        containsString("id=\"link-owner-only\""), containsString("Only owners create connect links")));
        int before = CannedApiUpstream.requests.size();
        developer
                .post(page, page + "/connect-links", Map.of("platform", "linkedin"))
                .then()
                .statusCode(403)
                .contentType(containsString("text/html"))
                .body(containsString("cannot create connect links"));
        assertThat(CannedApiUpstream.requests.stream().skip(before))
                .noneMatch(request -> request.startsWith("POST /connect-sessions"));
    }

    @Test
    void anotherWorkspacesProfilesAreNotFound() {
        DashboardVisitor mine = DashboardVisitor.signedInToNewWorkspace("owner");
        DashboardVisitor theirs = DashboardVisitor.signedInToNewWorkspace("owner");
        mine.get(theirs.base("test") + "/profiles/" + CannedApiUpstream.ACME)
                .then()
                .statusCode(404)
                .body(not(containsString("Acme Shop")));
    }
}
