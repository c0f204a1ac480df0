package dev.herald.accounts.rest;

import static dev.herald.accounts.rest.ConnectSessionResourceTest.as;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.accounts.service.ConnectBrowserBinding;
import dev.herald.common.auth.Mode;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.net.URI;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The hosted page's language (the session's {@code locale}, else the browser's {@code Accept-Language}, else English)
 * and its embedded mode (height and completion messages to the embedding origin only).
 */
@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "accounts_test"))
@WithTestResource(value = ConnectFakeUpstreams.class, scope = TestResourceScope.MATCHING_RESOURCES)
class HostedConnectPageLanguagesTest {
    private static final Pattern CSRF = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"");
    private static final Pattern COMPLETED = Pattern.compile("data-completed=\"([^\"]+)\"");

    private String workspace;
    private String profile;

    @BeforeEach
    void newWorkspace() {
        workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
        profile = ResourceIds.newId(IdPrefix.PROFILE);
    }

    private record Link(String id, String path) {}

    private Link newLink(String fields) {
        var created = as(workspace, Mode.TEST)
                .body("{\"profile_id\":\"" + profile + "\"" + fields + "}")
                .post("/connect-sessions")
                .then()
                .statusCode(201)
                .extract();
        return new Link(
                created.path("data.id"),
                URI.create(created.<String>path("data.url")).getPath());
    }

    @Test
    void theSessionsLocaleChoosesThePagesLanguageWhateverTheBrowserPrefers() {
        Link link = newLink(",\"locale\":\"de-AT\",\"platforms\":[\"tiktok\"]");
        given().header("Accept-Language", "fr")
                .get(link.path())
                .then()
                .statusCode(200)
                .body(containsString("<html lang=\"de\">"))
                .body(containsString("<h1>Verbinden Sie Ihre Social-Media-Konten</h1>"))
                .body(containsString("TikTok autorisieren"))
                .body(containsString("Herald darf dann:"))
                // A localized date: German month names, in UTC.
                .body(org.hamcrest.Matchers.matchesPattern(
                        "(?s).*Dieser Link gilt bis \\d{1,2}\\. (Januar|Februar|März|April|Mai|Juni|Juli|August"
                                + "|September|Oktober|November|Dezember) \\d{4}.* UTC\\..*"));
    }

    @Test
    void withoutALocaleTheBrowsersLanguagesDecideByQValueElseEnglish() {
        Link link = newLink("");
        given().header("Accept-Language", "ja, fr;q=0.5, es;q=0.9")
                .get(link.path())
                .then()
                .statusCode(200)
                .body(containsString("<html lang=\"es\">"))
                .body(containsString("Conecta tus cuentas de redes sociales"));
        given().header("Accept-Language", "pt-BR,pt;q=0.9")
                .get(link.path())
                .then()
                .body(containsString("<html lang=\"pt\">"))
                .body(containsString("Conecte as suas contas de redes sociais"));
        given().header("Accept-Language", "ja")
                .get(link.path())
                .then()
                .body(containsString("<html lang=\"en\">"))
                .body(containsString("Connect your social accounts"));
    }

    @Test
    void aDeadLinksPageSpeaksTheSessionsLanguage() {
        Link link = newLink(",\"locale\":\"fr\"");
        as(workspace, Mode.TEST).delete("/connect-sessions/" + link.id()).then().statusCode(200);
        given().header("Accept-Language", "de")
                .get(link.path())
                .then()
                .statusCode(410)
                .body(containsString("<html lang=\"fr\">"))
                .body(containsString("Ce lien a été annulé"))
                .body(containsString("connect_session_revoked"));
        // An unknown link has no session: the browser's language.
        given().header("Accept-Language", "de")
                .get("/connect/not-a-link")
                .then()
                .statusCode(404)
                .body(containsString("Dieser Link funktioniert nicht"));
    }

    @Test
    void anEmbeddedSessionsClosingPagePostsTheCompletionToItsOriginOnly() throws Exception {
        Link link = newLink(",\"embed_origin\":\"https://app.example.com\",\"platforms\":[\"tiktok\"]");
        Response opened = given().get(link.path());
        String cookie = opened.getCookie(ConnectBrowserBinding.COOKIE);
        Matcher csrf = CSRF.matcher(opened.asString());
        assertThat(csrf.find()).isTrue();
        String nonce = opened.getHeader("Content-Security-Policy").replaceAll(".*'nonce-([^']+)'.*", "$1");
        // Its one script, nonce-tagged, posting to the embedding origin exactly.
        assertThat(opened.getHeader("Content-Security-Policy")).contains("script-src 'nonce-" + nonce + "'");
        assertThat(opened.asString())
                .contains("<script nonce=\"" + nonce + "\" data-origin=\"https://app.example.com\">")
                .doesNotContain("'*'")
                .doesNotContain("\"*\"");
        String connected = given().redirects()
                .follow(false)
                .contentType("application/x-www-form-urlencoded")
                .cookie(ConnectBrowserBinding.COOKIE, cookie)
                .formParam("csrf", csrf.group(1))
                .formParam("platform", "tiktok")
                .formParam("name", "Ada")
                .formParam("username", "ada")
                .post("/connect/sessions/" + link.id() + "/authorize")
                .then()
                .statusCode(303)
                .extract()
                .header("Location")
                .replaceAll(".*connected=", "");

        Response done = given().contentType("application/x-www-form-urlencoded")
                .cookie(ConnectBrowserBinding.COOKIE, cookie)
                .formParam("csrf", csrf.group(1))
                .post("/connect/sessions/" + link.id() + "/complete");
        done.then().statusCode(200).body(containsString("all set</h1>")).body(containsString("data-account-id"));
        Matcher message = COMPLETED.matcher(done.asString());
        assertThat(message.find()).as("the completion message").isTrue();
        JsonNode payload = new ObjectMapper().readTree(message.group(1).replace("&quot;", "\""));
        assertThat(payload.path("type").asText()).isEqualTo("herald.connect.completed");
        assertThat(payload.path("session_id").asText()).isEqualTo(link.id());
        assertThat(payload.path("status").asText()).isEqualTo("completed");
        assertThat(payload.path("accounts").get(0).path("id").asText()).isEqualTo(connected);
        assertThat(payload.path("accounts").get(0).path("platform").asText()).isEqualTo("tiktok");
    }

    @Test
    void aPageThatMayNotBeFramedHasNoScriptAtAll() {
        Link link = newLink("");
        given().get(link.path())
                .then()
                .statusCode(200)
                .header("Content-Security-Policy", not(containsString("script-src")))
                .body(not(containsString("<script")));
    }
}
