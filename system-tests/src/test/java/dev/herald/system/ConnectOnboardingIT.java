package dev.herald.system;

import static dev.herald.system.RunningSuite.as;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.http.ContentType;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

/**
 * The hosted onboarding as an end user meets it: Debian's headless Chromium opens the private link served
 * through the gateway, authorizes simulated accounts, and meets dead links and foreign framing. Screenshots of
 * each page go to target/screenshots/.
 */
class ConnectOnboardingIT {
    private static final Path SCREENSHOTS = Path.of("target", "screenshots");
    private static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(Duration.ofSeconds(10))
            .build();

    private static HeadlessChromium chromium;
    private static WebDriver browser;

    @BeforeAll
    static void startBrowser() throws IOException {
        Files.createDirectories(SCREENSHOTS);
        RunningSuite.get();
        chromium = HeadlessChromium.start();
        browser = chromium.driver();
    }

    @AfterAll
    static void stopBrowser() {
        if (chromium != null) {
            chromium.close();
        }
    }

    record Tenant(String key, String profileId) {}

    static Tenant newTenant(String name) {
        String workspace = RunningSuite.newWorkspace(name);
        String key = RunningSuite.newKey(workspace, "test");
        String profileId = as(key).contentType(ContentType.JSON)
                .body("{\"name\":\"" + name + " profile\"}")
                .post("/profiles")
                .then()
                .statusCode(201)
                .extract()
                .path("data.id");
        return new Tenant(key, profileId);
    }

    record Session(String id, String url) {}

    static Session newSession(Tenant tenant, String extraFields) {
        String body = "{\"profile_id\":\"" + tenant.profileId() + "\"" + extraFields + "}";
        var response = as(tenant.key()).contentType(ContentType.JSON).body(body).post("/connect-sessions");
        if (response.statusCode() == 503) {
            // 503 service_unavailable is the API's transient answer, retried by clients. Twice in CI, on a machine
            // shared with other test suites, accounts-service's 3 s check of the profile timed out exactly when its
            // profile.events consumer first got its partitions and read the backlog of the run (see issue 5's note).
            response = as(tenant.key()).contentType(ContentType.JSON).body(body).post("/connect-sessions");
        }
        var created = response.then().statusCode(201).extract();
        String url = created.path("data.url");
        assertThat(url).startsWith(RunningSuite.get().gatewayUrl() + "/connect/");
        return new Session(created.path("data.id"), url);
    }

    private static void screenshot(String name) throws IOException {
        byte[] png = ((org.openqa.selenium.TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES);
        Files.write(SCREENSHOTS.resolve(name + ".png"), png);
    }

    private static void authorizeInBrowser(String platform, String name, String username) throws InterruptedException {
        browser.findElement(By.id("name-" + platform)).sendKeys(name);
        browser.findElement(By.id("username-" + platform)).sendKeys(username);
        WebElement page = browser.findElement(By.tagName("html"));
        browser.findElement(By.id("authorize-" + platform)).click();
        BrowserPages.awaitNextPage(browser, page);
    }

    private static int status(String url) throws Exception {
        return HTTP.send(
                        HttpRequest.newBuilder(URI.create(url))
                                .timeout(Duration.ofSeconds(30))
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }

    @Test
    void anEndUserConnectsTwoSimulatedAccountsThroughTheHostedPage() throws Exception {
        Tenant tenant = newTenant("Onboarding");
        Session session = newSession(tenant, ",\"platforms\":[\"tiktok\",\"youtube\",\"linkedin\"]");

        browser.get(session.url());
        assertThat(browser.findElement(By.tagName("h1")).getText()).isEqualTo("Connect your social accounts");
        assertThat(browser.findElements(By.cssSelector("form button[id^=authorize-]")).stream()
                        .map(WebElement::getText))
                .containsExactly("Authorize TikTok", "Authorize YouTube", "Authorize LinkedIn");
        screenshot("01-connect-page");

        authorizeInBrowser("tiktok", "Ada Lovelace", "ada");
        assertThat(browser.findElement(By.id("notice")).getText())
                .isEqualTo("Connected TikTok account Ada Lovelace (@ada).");
        screenshot("02-first-account-connected");

        authorizeInBrowser("youtube", "Grace Hopper", "grace");
        assertThat(browser.findElement(By.id("notice")).getText()).contains("YouTube account Grace Hopper (@grace)");
        assertThat(browser.findElements(By.cssSelector("#connected-accounts li")))
                .hasSize(2);
        screenshot("03-second-account-connected");

        List<String> accountIds = as(tenant.key())
                .get("/connect-sessions/" + session.id())
                .then()
                .statusCode(200)
                .extract()
                .path("data.account_ids");
        assertThat(accountIds).hasSize(2);
        List<String> listed = as(tenant.key())
                .queryParam("profile_id", tenant.profileId())
                .get("/accounts")
                .then()
                .statusCode(200)
                .extract()
                .path("data.id");
        assertThat(listed).containsExactlyInAnyOrderElementsOf(accountIds);
        List<String> usernames = as(tenant.key())
                .queryParam("profile_id", tenant.profileId())
                .get("/accounts")
                .then()
                .extract()
                .path("data.username");
        assertThat(usernames).containsExactlyInAnyOrder("ada", "grace");
    }

    @Test
    void revokedAndExpiredLinksRefuseFurtherAuthorization() throws Exception {
        Tenant tenant = newTenant("Dead links");
        // The shortest lifetime the API allows; the page is opened now and used after it expired.
        Session expiring = newSession(tenant, ",\"expires_in\":60");
        Instant expiresAt = Instant.now().plusSeconds(60);
        Session revoked = newSession(tenant, "");

        browser.get(revoked.url());
        as(tenant.key()).delete("/connect-sessions/" + revoked.id()).then().statusCode(200);
        // The page was loaded while the link worked; authorizing from it now is refused.
        authorizeInBrowser("tiktok", "Late Larry", "larry");
        assertThat(browser.findElement(By.tagName("h1")).getText()).isEqualTo("This link was canceled");
        assertThat(browser.findElement(By.id("code")).getText()).isEqualTo("connect_session_revoked");
        screenshot("04-revoked-link");
        assertThat(status(revoked.url())).isEqualTo(410);

        browser.get(expiring.url());
        assertThat(browser.findElement(By.tagName("h1")).getText()).isEqualTo("Connect your social accounts");
        long wait = Duration.between(Instant.now(), expiresAt).toMillis() + 1500;
        if (wait > 0) {
            Thread.sleep(wait);
        }
        authorizeInBrowser("tiktok", "Slow Sam", "sam");
        assertThat(browser.findElement(By.tagName("h1")).getText()).isEqualTo("This link has expired");
        assertThat(browser.findElement(By.id("code")).getText()).isEqualTo("connect_session_expired");
        screenshot("05-expired-link");
        assertThat(status(expiring.url())).isEqualTo(410);

        for (Session dead : List.of(revoked, expiring)) {
            assertThat(as(tenant.key())
                            .get("/connect-sessions/" + dead.id())
                            .then()
                            .statusCode(200)
                            .extract()
                            .<List<String>>path("data.account_ids"))
                    .isEmpty();
        }
        assertThat(as(tenant.key())
                        .get("/accounts")
                        .then()
                        .statusCode(200)
                        .extract()
                        .<List<String>>path("data.id"))
                .isEmpty();
    }

    @Test
    void onlyTheConfiguredEmbedOriginMayFrameThePage() throws Exception {
        try (CustomerPage customer = CustomerPage.start("")) {
            Tenant tenant = newTenant("Embedding");
            Session allowed = newSession(tenant, ",\"embed_origin\":\"" + customer.origin() + "\"");
            Session foreign = newSession(tenant, ",\"embed_origin\":\"https://app.example.com\"");

            assertThat(framedHeading(customer, allowed)).isEqualTo("Connect your social accounts");
            screenshot("06-embedded-by-configured-origin");
            assertThat(framedHeading(customer, foreign)).isNotEqualTo("Connect your social accounts");
            screenshot("07-embedding-refused-by-csp");
        }
    }

    /** The h1 the framed page shows inside the customer's page, or "" when the frame shows none of ours. */
    private static String framedHeading(CustomerPage customer, Session session) throws InterruptedException {
        browser.get(customer.framing(session.url()));
        Thread.sleep(1500); // the frame loads after the outer page
        browser.switchTo().frame(browser.findElement(By.id("connect")));
        try {
            List<WebElement> headings = browser.findElements(By.tagName("h1"));
            return headings.isEmpty() ? "" : headings.get(0).getText();
        } finally {
            browser.switchTo().defaultContent();
        }
    }
}
