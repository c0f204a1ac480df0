package dev.herald.accounts.rest;

import static dev.herald.accounts.rest.ConnectSessionResourceTest.as;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;

import com.sun.net.httpserver.HttpServer;
import dev.herald.common.auth.Mode;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code /branding} and its logo: validation, the logo fetched once from a local host (tests allow
 * {@code herald.branding.allow-private-urls}) and served by Herald, scoping by workspace and mode, and the hosted page
 * that shows it.
 */
@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "accounts_test"))
@WithTestResource(value = ConnectFakeUpstreams.class, scope = TestResourceScope.MATCHING_RESOURCES)
class BrandingResourceTest {
    /** The smallest PNG: its signature, then whatever (the type is decided by the signature alone). */
    static final byte[] PNG = pngOf(64);

    private static HttpServer logoHost;
    private static String logoBase;

    private String workspace;
    private String profile;

    static byte[] pngOf(int size) {
        byte[] bytes = new byte[size];
        Arrays.fill(bytes, (byte) 7);
        System.arraycopy(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'}, 0, bytes, 0, 8);
        return bytes;
    }

    @BeforeAll
    static void startLogoHost() throws IOException {
        logoHost = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        serve("/logo.png", 200, "image/png", PNG);
        // Claims to be a PNG: the bytes decide.
        serve(
                "/logo.svg",
                200,
                "image/png",
                "<svg xmlns=\"http://www.w3.org/2000/svg\"/>".getBytes(StandardCharsets.UTF_8));
        serve("/huge.png", 200, "image/png", pngOf(256 * 1024 + 1));
        // /sized/<n>.png: a PNG of n bytes, an image no other test uses (logos are shared by hash across brandings).
        logoHost.createContext("/sized/", exchange -> {
            String name = exchange.getRequestURI().getPath().substring("/sized/".length());
            byte[] body = pngOf(Integer.parseInt(name.replace(".png", "")));
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        serve("/gone.png", 404, "text/plain", "gone".getBytes(StandardCharsets.UTF_8));
        logoHost.createContext("/moved.png", exchange -> {
            exchange.getResponseHeaders().add("Location", logoBase + "/logo.png");
            exchange.sendResponseHeaders(302, -1);
            exchange.close();
        });
        logoHost.start();
        logoBase = "http://127.0.0.1:" + logoHost.getAddress().getPort();
    }

    private static void serve(String path, int status, String type, byte[] body) {
        logoHost.createContext(path, exchange -> {
            exchange.getResponseHeaders().add("Content-Type", type);
            exchange.sendResponseHeaders(status, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
    }

    @AfterAll
    static void stopLogoHost() {
        logoHost.stop(0);
    }

    @BeforeEach
    void newWorkspace() {
        workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
        profile = ResourceIds.newId(IdPrefix.PROFILE);
    }

    private String fullBranding(String logoPath) {
        return "{\"display_name\":\"  Acme Social \",\"logo_url\":\"" + logoBase + logoPath
                + "\",\"accent_color\":\"#8A1C7C\",\"support_url\":\"https://acme.example/help\","
                + "\"privacy_url\":\"https://acme.example/privacy\"}";
    }

    @Test
    void everyBadFieldIsReportedOnItsFieldWithTheMeasuredContrast() {
        as(workspace, Mode.TEST)
                .body("{\"display_name\":\"Acme\\nSocial\",\"logo_url\":\"ftp://acme.example/logo.png\","
                        + "\"accent_color\":\"#ffcc00\",\"support_url\":\"http://acme.example/help\","
                        + "\"privacy_url\":\"https://" + "x".repeat(2048) + "\",\"theme\":\"dark\"}")
                .put("/branding")
                .then()
                .statusCode(422)
                .body("error.code", equalTo("validation_failed"))
                .body(
                        "error.details.errors.field",
                        containsInAnyOrder(
                                "theme", "display_name", "logo_url", "accent_color", "support_url", "privacy_url"))
                .body(
                        "error.details.errors.find { it.field == 'accent_color' }.message",
                        containsString("contrast ratio of 1.51:1 against white"))
                .body("error.details.errors.find { it.field == 'accent_color' }.code", equalTo("invalid_value"))
                .body("error.details.errors.find { it.field == 'privacy_url' }.code", equalTo("too_long"));
        as(workspace, Mode.TEST)
                .body("{\"accent_color\":\"0b57d0\",\"display_name\":\"" + "n".repeat(101) + "\"}")
                .put("/branding")
                .then()
                .statusCode(422)
                .body("error.details.errors.field", containsInAnyOrder("accent_color", "display_name"));
        // Nothing was stored.
        as(workspace, Mode.TEST).get("/branding").then().statusCode(404).body("error.code", equalTo("not_found"));
    }

    @Test
    void theLogoIsFetchedOnceAndServedByHeraldUnderItsHash() {
        var set = as(workspace, Mode.TEST)
                .body(fullBranding("/sized/1001.png"))
                .put("/branding")
                .then()
                .statusCode(200)
                .body("data.display_name", equalTo("Acme Social"))
                .body("data.accent_color", equalTo("#8a1c7c"))
                .body("data.logo_url", equalTo(logoBase + "/sized/1001.png"))
                .body(
                        "data.hosted_logo_url",
                        matchesPattern("^http://127\\.0\\.0\\.1:18080/connect/logos/[0-9a-f]{64}$"))
                .extract();
        String hosted = set.path("data.hosted_logo_url");

        byte[] served = given().get(URI.create(hosted).getPath())
                .then()
                .statusCode(200)
                .contentType("image/png")
                .header("X-Content-Type-Options", "nosniff")
                .header("Cache-Control", "public, max-age=31536000, immutable")
                .extract()
                .asByteArray();
        assertThat(served).isEqualTo(pngOf(1001));

        as(workspace, Mode.TEST)
                .get("/branding")
                .then()
                .statusCode(200)
                .body("data.hosted_logo_url", equalTo(hosted))
                .body("data.support_url", equalTo("https://acme.example/help"));

        // A new image is a new URL; the old one, named by no branding now, is gone.
        String replaced = as(workspace, Mode.TEST)
                .body(fullBranding("/sized/1002.png"))
                .put("/branding")
                .then()
                .statusCode(200)
                .extract()
                .path("data.hosted_logo_url");
        assertThat(replaced).isNotEqualTo(hosted);
        given().get(URI.create(hosted).getPath()).then().statusCode(404);

        // Whole replacement: what is left out is not set any more.
        as(workspace, Mode.TEST)
                .body("{\"display_name\":\"Acme\"}")
                .put("/branding")
                .then()
                .statusCode(200)
                .body("data.logo_url", nullValue())
                .body("data.hosted_logo_url", nullValue())
                .body("data.accent_color", nullValue());
        given().get(URI.create(replaced).getPath()).then().statusCode(404);
    }

    @Test
    void aLogoThatCannotBeUsedIsRefusedOnItsFieldAndNothingChanges() {
        as(workspace, Mode.TEST)
                .body("{\"display_name\":\"Before\"}")
                .put("/branding")
                .then()
                .statusCode(200);
        String[][] cases = {
            {"/logo.svg", "media_type_unsupported"},
            {"/huge.png", "media_too_large"},
            {"/gone.png", "media_unavailable"},
            {"/moved.png", "media_unavailable"},
        };
        for (String[] refused : cases) {
            as(workspace, Mode.TEST)
                    .body(fullBranding(refused[0]))
                    .put("/branding")
                    .then()
                    .statusCode(422)
                    .body("error.details.errors[0].field", equalTo("logo_url"))
                    .body("error.details.errors[0].code", equalTo(refused[1]));
        }
        as(workspace, Mode.TEST).get("/branding").then().statusCode(200).body("data.display_name", equalTo("Before"));
    }

    @Test
    void aBrandingIsReadOnlyInItsOwnWorkspaceAndMode() {
        as(workspace, Mode.TEST)
                .body(fullBranding("/logo.png"))
                .put("/branding")
                .then()
                .statusCode(200);
        as(workspace, Mode.LIVE).get("/branding").then().statusCode(404);
        as(ResourceIds.newId(IdPrefix.WORKSPACE), Mode.TEST)
                .get("/branding")
                .then()
                .statusCode(404);
        as(ResourceIds.newId(IdPrefix.WORKSPACE), Mode.TEST)
                .delete("/branding")
                .then()
                .statusCode(404);

        // Neither another workspace's page nor the other mode's page shows it.
        String otherWorkspacePage = given().get(linkPath(ResourceIds.newId(IdPrefix.WORKSPACE), Mode.TEST, null))
                .then()
                .statusCode(200)
                .extract()
                .asString();
        String liveModePage = given().get(linkPath(workspace, Mode.LIVE, null))
                .then()
                .statusCode(200)
                .extract()
                .asString();
        for (String page : new String[] {otherWorkspacePage, liveModePage}) {
            assertThat(page)
                    .doesNotContain("Acme Social")
                    .doesNotContain("/connect/logos/")
                    .doesNotContain("#8a1c7c");
        }

        as(workspace, Mode.TEST)
                .delete("/branding")
                .then()
                .statusCode(200)
                .body("data.id", equalTo(workspace))
                .body("data.object", equalTo("branding"));
        as(workspace, Mode.TEST).get("/branding").then().statusCode(404);
    }

    @Test
    void theConnectPageShowsTheBrandingAndASessionsOwnDisplayName() {
        String hosted = as(workspace, Mode.TEST)
                .body(fullBranding("/logo.png"))
                .put("/branding")
                .then()
                .statusCode(200)
                .extract()
                .path("data.hosted_logo_url");
        String logoPath = URI.create(hosted).getPath();

        String page = given().get(linkPath(workspace, Mode.TEST, null))
                .then()
                .statusCode(200)
                .extract()
                .asString();
        assertThat(page)
                .contains("--accent: #8a1c7c;")
                // The name follows the logo as text, so the image is decorative (no name read twice).
                .contains("<img id=\"brand-logo\" src=\"" + logoPath + "\" alt=\"\">")
                .contains("<span class=\"name\" id=\"brand-name\"><bdi>Acme Social</bdi></span>")
                .contains("id=\"brand-support\" href=\"https://acme.example/help\"")
                .contains("id=\"brand-privacy\" href=\"https://acme.example/privacy\"");

        var created = as(workspace, Mode.TEST)
                .body("{\"profile_id\":\"" + profile + "\",\"display_name\":\" Bakery by Acme \"}")
                .post("/connect-sessions")
                .then()
                .statusCode(201)
                .body("data.display_name", equalTo("Bakery by Acme"))
                .extract();
        String overridden = given().get(
                        URI.create(created.<String>path("data.url")).getPath())
                .then()
                .statusCode(200)
                .extract()
                .asString();
        assertThat(overridden).contains("<bdi>Bakery by Acme</bdi>").doesNotContain("<bdi>Acme Social</bdi>");
    }

    @Test
    void withoutBrandingThePageKeepsHeraldsNeutralLook() {
        String page = given().get(linkPath(workspace, Mode.TEST, null))
                .then()
                .statusCode(200)
                .extract()
                .asString();
        assertThat(page)
                .contains("--accent: #0b57d0;")
                .contains("<span class=\"name\" id=\"brand-name\"><bdi>Herald</bdi></span>")
                .doesNotContain("id=\"brand-logo\"")
                .doesNotContain("id=\"brand-links\"");
    }

    @Test
    void aSessionsDisplayNameFollowsTheBrandingsRules() {
        as(workspace, Mode.TEST)
                .body("{\"profile_id\":\"" + profile + "\",\"display_name\":\"Tab\\there\"}")
                .post("/connect-sessions")
                .then()
                .statusCode(422)
                .body("error.details.errors[0].field", equalTo("display_name"))
                .body("error.details.errors[0].code", equalTo("invalid_format"));
        as(workspace, Mode.TEST)
                .body("{\"profile_id\":\"" + profile + "\"}")
                .post("/connect-sessions")
                .then()
                .statusCode(201)
                .body("data.display_name", nullValue())
                .body("data", not(org.hamcrest.Matchers.hasKey("missing")));
    }

    @Test
    void anUnknownLogoIsA404() {
        given().get("/connect/logos/" + "0".repeat(64)).then().statusCode(404);
        given().get("/connect/logos/not-a-hash").then().statusCode(404);
    }

    private String linkPath(String workspaceId, Mode mode, String displayName) {
        String body = "{\"profile_id\":\"" + ResourceIds.newId(IdPrefix.PROFILE) + "\""
                + (displayName == null ? "" : ",\"display_name\":\"" + displayName + "\"") + "}";
        String url = as(workspaceId, mode)
                .body(body)
                .post("/connect-sessions")
                .then()
                .statusCode(201)
                .extract()
                .path("data.url");
        return URI.create(url).getPath();
    }
}
