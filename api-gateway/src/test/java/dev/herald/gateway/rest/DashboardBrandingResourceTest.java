package dev.herald.gateway.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;

import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import java.util.Map;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "gateway_test"))
@QuarkusTestResource(value = CannedApiUpstream.class, restrictToAnnotatedClass = true)
class DashboardBrandingResourceTest {

    @Test
    void everyoneSeesTheBrandingAndItsPreviewButOnlyAnOwnerGetsTheForm() {
        DashboardVisitor viewer = DashboardVisitor.signedInToNewWorkspace("viewer");
        viewer.get(viewer.base("live") + "/branding")
                .then()
                .statusCode(200)
                .body(containsString("value=\"Acme Social\""))
                .body(containsString(
                        "<img src=\"/connect/logos/" + "ab".repeat(32) + "\" alt=\"\" id=\"preview-logo\">"))
                .body(containsString("<span class=\"preview-name\" id=\"preview-name\">Acme Social</span>"))
                .body(containsString("id=\"preview-privacy\" hidden"))
                .body(not(containsString("id=\"branding-save\"")))
                .body(not(containsString("id=\"branding-remove\"")));
        // A viewer's form is refused, and nothing is asked of the API (the requests queue is shared by the class's
        // tests).
        int before = CannedApiUpstream.requests.size();
        viewer.post(viewer.base("live") + "/branding", viewer.base("live") + "/branding", Map.of("display_name", "X"))
                .then()
                .statusCode(403);
        assertThat(CannedApiUpstream.requests.stream().skip(before))
                .noneMatch(request -> request.startsWith("PUT /branding"));
    }

    @Test
    void anOwnerSavesTheFormAsAWholeBrandingAndSeesEachRefusalBesideItsField() {
        DashboardVisitor owner = DashboardVisitor.signedInToNewWorkspace("owner");
        String page = owner.base("test") + "/branding";
        owner.get(page).then().statusCode(200).body(containsString("id=\"branding-save\""));

        CannedApiUpstream.bodies.clear();
        owner.post(
                        page,
                        page,
                        Map.of(
                                "display_name", " Acme ",
                                "logo_url", "",
                                "accent_color", "#ffcc00",
                                "support_url", "https://acme.example/help",
                                "privacy_url", ""))
                .then()
                .statusCode(422)
                .body(containsString("<p class=\"field-error\" id=\"branding-accent-color-error\">accent_color #ffcc00"
                        + " has a contrast ratio of 1.57:1 against white.</p>"))
                .body(containsString("aria-invalid=\"true\""))
                .body(containsString("value=\"#ffcc00\""));
        // Blank fields are left out: whole replacement leaves them unset.
        assertThat(CannedApiUpstream.bodies.peek().toString())
                .isEqualTo("{\"display_name\":\"Acme\",\"accent_color\":\"#ffcc00\","
                        + "\"support_url\":\"https://acme.example/help\"}");

        owner.post(page, page, Map.of("display_name", "Acme", "accent_color", "#0b57d0"))
                .then()
                .statusCode(303)
                .header("Location", containsString(page + "?done=saved"));
        owner.post(page, page + "/remove", Map.of())
                .then()
                .statusCode(303)
                .header("Location", containsString(page + "?done=removed"));
        assertThat(CannedApiUpstream.requests).contains("DELETE /branding");
    }
}
