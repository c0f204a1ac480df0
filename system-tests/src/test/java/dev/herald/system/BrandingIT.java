package dev.herald.system;

import static dev.herald.system.RunningSuite.as;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import java.awt.Color;
import java.io.IOException;
import java.net.URI;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The connect page's branding through the gateway: {@code PUT /branding} with a logo a local host serves (the suite
 * lets accounts-service fetch from 127.0.0.1, {@code HERALD_BRANDING_ALLOW_PRIVATE_URLS}), a connect session that
 * names the customer its own way, and the page that shows Herald's copy of the logo, the accent and the footer links.
 */
class BrandingIT {
    private static LogoHost logoHost;
    private static String logoUrl;

    @BeforeAll
    static void startLogoHost() throws IOException {
        RunningSuite.get();
        logoHost = LogoHost.start(new Color(0x8A1C7C), "AS");
        logoUrl = logoHost.url();
    }

    @AfterAll
    static void stopLogoHost() {
        if (logoHost != null) {
            logoHost.close();
        }
    }

    @Test
    void theConnectPageShowsTheWorkspacesLogoServedByHeraldItsAccentAndTheSessionsName() {
        String workspace = RunningSuite.newWorkspace("Branding");
        String key = RunningSuite.newKey(workspace, "test");
        String hosted = as(key).contentType(ContentType.JSON)
                .body(
                        "{\"display_name\":\"Acme Social\",\"logo_url\":\"" + logoUrl
                                + "\",\"accent_color\":\"#8A1C7C\","
                                + "\"support_url\":\"https://acme.example/help\",\"privacy_url\":\"https://acme.example/privacy\"}")
                .put("/branding")
                .then()
                .statusCode(200)
                .extract()
                .path("data.hosted_logo_url");
        assertThat(hosted).startsWith(RunningSuite.get().gatewayUrl() + "/connect/logos/");

        String profile = as(key).contentType(ContentType.JSON)
                .body("{\"name\":\"Bakery\"}")
                .post("/profiles")
                .then()
                .statusCode(201)
                .extract()
                .path("data.id");
        String link = as(key).contentType(ContentType.JSON)
                .body("{\"profile_id\":\"" + profile + "\",\"display_name\":\"Bakery by Acme\"}")
                .post("/connect-sessions")
                .then()
                .statusCode(201)
                .extract()
                .path("data.url");

        String page =
                RestAssured.given().get(link).then().statusCode(200).extract().asString();
        String logoPath = URI.create(hosted).getPath();
        assertThat(page)
                .contains("src=\"" + logoPath + "\"")
                .contains("<bdi>Bakery by Acme</bdi>")
                .contains("--accent: #8a1c7c;")
                .contains("href=\"https://acme.example/privacy\"");

        // The page's image comes from Herald (through the gateway), the bytes the customer's host served.
        var logo = RestAssured.given().get(hosted).then().statusCode(200).extract();
        assertThat(logo.contentType()).isEqualTo("image/png");
        assertThat(logo.header("X-Content-Type-Options")).isEqualTo("nosniff");
        assertThat(logo.header("Cache-Control")).contains("immutable");
        assertThat(logo.asByteArray()).isEqualTo(logoHost.png());

        // Another workspace, and the other mode, see none of it.
        String other = RunningSuite.newKey(RunningSuite.newWorkspace("Branding, other"), "test");
        as(other).get("/branding").then().statusCode(404);
        as(RunningSuite.newKey(workspace, "live")).get("/branding").then().statusCode(404);
    }
}
