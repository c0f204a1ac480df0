package dev.herald.system;

import static dev.herald.system.RunningSuite.as;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.system.ConnectOnboardingIT.Session;
import dev.herald.system.ConnectOnboardingIT.Tenant;
import io.restassured.http.ContentType;
import java.awt.Color;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

/**
 * The hosted connect page as everyone must be able to use it (issue 39): axe-core, injected into the page, finds no
 * violation on any of its states (choose a platform, after an authorization, done, expired, canceled) in English and
 * German; an end user connects an account with the keyboard alone and sees where the focus is; and an embedding page
 * on the session's {@code embed_origin} receives the completion message and fits the frame to the page. Screenshots
 * (1280 and 375 px wide, both languages) go to target/screenshots/ (docs/images/ has a copy).
 */
class ConnectPageAccessibilityIT {
    private static final Path AXE = Path.of("target", "axe", "node_modules", "axe-core", "axe.min.js");
    private static final Path SCREENSHOTS = Path.of("target", "screenshots");
    /** Every rule axe runs by default (WCAG 2.0 to 2.2 A and AA, and its best practices). */
    private static final String RUN_AXE = "var done = arguments[arguments.length - 1];"
            + "axe.run(document).then(function (result) {"
            + "  done(result.violations.map(function (v) {"
            + "    return v.id + ' (' + v.impact + '): ' + v.help + ' at '"
            + "      + v.nodes.map(function (n) { return n.target.join(' '); }).join(', ');"
            + "  }));"
            + "}, function (failure) { done(['axe failed: ' + failure]); });";

    /** The customer's page records every message, and fits the frame to the height the hosted page posts. */
    private static final String RECORD_MESSAGES = "window.heraldMessages = [];"
            + "window.addEventListener('message', function (event) {"
            + "  window.heraldMessages.push({origin: event.origin, data: event.data});"
            + "  if (event.data && event.data.type === 'herald.connect.resize') {"
            + "    document.getElementById('connect').height = event.data.height;"
            + "  }"
            + "});";

    private static HeadlessChromium chromium;
    private static WebDriver browser;
    private static String axeSource;

    @BeforeAll
    static void startBrowser() throws IOException {
        assertThat(AXE)
                .as("axe-core, installed by system-tests' build (npm ci in target/axe)")
                .isRegularFile();
        axeSource = Files.readString(AXE);
        Files.createDirectories(SCREENSHOTS);
        RunningSuite.get();
        chromium = HeadlessChromium.start();
        browser = chromium.driver();
        browser.manage().timeouts().scriptTimeout(Duration.ofSeconds(60));
    }

    @AfterAll
    static void stopBrowser() {
        if (chromium != null) {
            chromium.close();
        }
    }

    @Test
    void axeFindsNoViolationOnAnyStateOfThePageInEnglishOrGerman() throws Exception {
        Tenant tenant = ConnectOnboardingIT.newTenant("Accessible page");
        // Created first, used last: the shortest lifetime the API allows runs out while the other states are checked.
        Map<String, Session> expiring = Map.of(
                "en", ConnectOnboardingIT.newSession(tenant, ",\"expires_in\":60,\"locale\":\"en\""),
                "de", ConnectOnboardingIT.newSession(tenant, ",\"expires_in\":60,\"locale\":\"de\""));
        Instant expiresAt = Instant.now().plusSeconds(60);
        List<String> found = new ArrayList<>();
        for (String language : List.of("en", "de")) {
            Session session = ConnectOnboardingIT.newSession(
                    tenant, ",\"platforms\":[\"tiktok\",\"youtube\",\"linkedin\"],\"locale\":\"" + language + "\"");
            browser.get(session.url());
            assertThat(browser.findElement(By.tagName("html")).getAttribute("lang"))
                    .isEqualTo(language);
            found.addAll(check(language + " choose"));
            screenshots("connect-page-" + language);

            authorize("tiktok", "Ada Lovelace", "ada");
            authorize("youtube", "Grace Hopper", "grace");
            assertThat(browser.findElements(By.cssSelector("#connected-accounts li")))
                    .hasSize(2);
            found.addAll(check(language + " authorized, with the YouTube consent step"));
            screenshots("connect-page-" + language + "-connected");

            submit(By.id("finish"));
            assertThat(browser.findElements(By.cssSelector("#connected-accounts li")))
                    .hasSize(2);
            found.addAll(check(language + " done"));

            Session revoked = ConnectOnboardingIT.newSession(tenant, ",\"locale\":\"" + language + "\"");
            as(tenant.key()).delete("/connect-sessions/" + revoked.id()).then().statusCode(200);
            browser.get(revoked.url());
            assertThat(browser.findElement(By.id("code")).getText()).isEqualTo("connect_session_revoked");
            found.addAll(check(language + " canceled"));
        }
        long wait = Duration.between(Instant.now(), expiresAt).toMillis() + 1500;
        if (wait > 0) {
            Thread.sleep(wait);
        }
        for (String language : List.of("en", "de")) {
            browser.get(expiring.get(language).url());
            assertThat(browser.findElement(By.id("code")).getText()).isEqualTo("connect_session_expired");
            assertThat(browser.findElement(By.tagName("html")).getAttribute("lang"))
                    .isEqualTo(language);
            found.addAll(check(language + " expired"));
        }
        assertThat(found).as("axe-core's violations").isEmpty();
    }

    @Test
    void anEndUserConnectsAnAccountWithTheKeyboardAloneAndSeesTheFocus() throws Exception {
        Tenant tenant = ConnectOnboardingIT.newTenant("Keyboard only");
        Session session = ConnectOnboardingIT.newSession(tenant, ",\"platforms\":[\"pinterest\"]");
        browser.get(session.url());
        WebElement page = browser.findElement(By.tagName("html"));

        // The skip link comes first, then the form in reading order; every focused control shows a solid outline.
        List<String> order = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            active().sendKeys(Keys.TAB);
            WebElement focused = active();
            order.add(focused.getTagName() + "#" + focused.getAttribute("id"));
            assertThat(focused.getCssValue("outline-style"))
                    .as("the focus of %s is visible", order.get(i))
                    .isEqualTo("solid");
            if (i == 1) {
                focused.sendKeys("Kay Board");
            } else if (i == 2) {
                focused.sendKeys("kay");
            }
        }
        assertThat(order)
                .containsExactly(
                        "a#skip", "input#name-pinterest", "input#username-pinterest", "button#authorize-pinterest");
        active().sendKeys(Keys.ENTER);
        BrowserPages.awaitNextPage(browser, page);
        assertThat(browser.findElement(By.id("notice")).getText()).contains("Kay Board (@kay)");
        assertThat(as(tenant.key())
                        .get("/connect-sessions/" + session.id())
                        .then()
                        .statusCode(200)
                        .extract()
                        .<List<String>>path("data.account_ids"))
                .hasSize(1);
    }

    @Test
    void aBrandedPageInGermanConnectsAnAccountInItsFrameAndTellsTheEmbeddingPage() throws Exception {
        try (LogoHost logo = LogoHost.start(new Color(0x8A1C7C), "AS");
                CustomerPage customer = CustomerPage.start(RECORD_MESSAGES)) {
            String origin = customer.origin();
            Tenant tenant = ConnectOnboardingIT.newTenant("Branded page");
            as(tenant.key())
                    .contentType(ContentType.JSON)
                    .body("{\"display_name\":\"Acme Social\",\"logo_url\":\"" + logo.url()
                            + "\",\"accent_color\":\"#8A1C7C\",\"support_url\":\"https://acme.example/hilfe\","
                            + "\"privacy_url\":\"https://acme.example/datenschutz\"}")
                    .put("/branding")
                    .then()
                    .statusCode(200);
            Session session = ConnectOnboardingIT.newSession(
                    tenant,
                    ",\"platforms\":[\"tiktok\",\"linkedin\"],\"locale\":\"de\",\"embed_origin\":\"" + origin + "\"");

            // The page on its own first, for the screenshots (docs/images/connect-page-branded-de-*.png).
            browser.get(session.url());
            assertBrandedInGerman();
            screenshots("connect-page-branded-de");

            browser.get(customer.framing(session.url()));
            browser.switchTo().frame(awaitFrame());
            assertBrandedInGerman();
            authorize("tiktok", "Emma Bed", "emma");
            assertThat(browser.findElement(By.id("finish")).getText()).isEqualTo("Abschließen");
            submit(By.id("finish"));

            Map<String, Object> completed = awaitMessage("herald.connect.completed");
            @SuppressWarnings("unchecked")
            Map<String, Object> data = (Map<String, Object>) completed.get("data");
            assertThat(data).containsEntry("session_id", session.id()).containsEntry("status", "completed");
            assertThat(completed.get("origin") + "/")
                    .isEqualTo(URI.create(RunningSuite.get().gatewayUrl())
                            .resolve("/")
                            .toString());
        } finally {
            browser.switchTo().defaultContent();
        }
    }

    /** The customer's logo (Herald's copy, drawn), name and accent, and the page's words in German. */
    private static void assertBrandedInGerman() {
        assertThat(script("return document.documentElement.lang;")).isEqualTo("de");
        // The document in the frame (the driver's getTitle names the top-level page's).
        assertThat(script("return document.title;")).isEqualTo("Konten verbinden · Acme Social");
        assertThat(browser.findElement(By.id("brand-name")).getText()).isEqualTo("Acme Social");
        assertThat(script("var logo = document.getElementById('brand-logo');"
                        + " return logo.complete ? logo.naturalWidth : -1;"))
                .as("the logo's width as drawn")
                .isEqualTo(96L);
        assertThat(browser.findElement(By.id("authorize-tiktok")).getText()).isEqualTo("TikTok autorisieren");
        assertThat(browser.findElement(By.id("authorize-tiktok")).getCssValue("background-color"))
                .as("the accent on the buttons")
                .isEqualTo("rgba(138, 28, 124, 1)");
        assertThat(browser.findElement(By.id("brand-privacy")).getAttribute("href"))
                .isEqualTo("https://acme.example/datenschutz");
    }

    @Test
    void theCompletionMessageReachesTheEmbeddingPageOnTheConfiguredOrigin() throws Exception {
        try (CustomerPage customer = CustomerPage.start(RECORD_MESSAGES)) {
            String origin = customer.origin();
            Tenant tenant = ConnectOnboardingIT.newTenant("Embedded page");
            Session session = ConnectOnboardingIT.newSession(
                    tenant, ",\"platforms\":[\"tiktok\"],\"embed_origin\":\"" + origin + "\"");
            browser.get(customer.framing(session.url()));
            browser.switchTo().frame(awaitFrame());
            authorize("tiktok", "Emma Bed", "emma");
            submit(By.id("finish"));
            // The closing page fits its frame: the frame grew to the page, which has no scroll bar of its own.
            awaitMessage("herald.connect.completed");
            browser.switchTo().frame(browser.findElement(By.id("connect")));
            long overflow = (Long) script("return document.documentElement.scrollHeight - window.innerHeight;");
            browser.switchTo().defaultContent();
            assertThat(overflow).as("the framed page's own scrolling").isLessThanOrEqualTo(1);

            Map<String, Object> completed = awaitMessage("herald.connect.completed");
            String gateway =
                    URI.create(RunningSuite.get().gatewayUrl()).resolve("/").toString();
            assertThat(completed.get("origin") + "/").isEqualTo(gateway);
            @SuppressWarnings("unchecked")
            Map<String, Object> data = (Map<String, Object>) completed.get("data");
            List<String> accountIds = as(tenant.key())
                    .get("/connect-sessions/" + session.id())
                    .then()
                    .statusCode(200)
                    .extract()
                    .path("data.account_ids");
            assertThat(data)
                    .containsEntry("session_id", session.id())
                    .containsEntry("status", "completed")
                    .containsEntry("accounts", List.of(Map.of("id", accountIds.get(0), "platform", "tiktok")));
        } finally {
            browser.switchTo().defaultContent();
        }
    }

    /** axe-core's violations on the current page, each labelled with the page's state. */
    @SuppressWarnings("unchecked")
    private static List<String> check(String state) {
        ((JavascriptExecutor) browser).executeScript(axeSource);
        List<String> violations = (List<String>) ((JavascriptExecutor) browser).executeAsyncScript(RUN_AXE);
        return violations.stream().map(violation -> state + ": " + violation).toList();
    }

    private static void authorize(String platform, String name, String username) throws InterruptedException {
        browser.findElement(By.id("name-" + platform)).sendKeys(name);
        browser.findElement(By.id("username-" + platform)).sendKeys(username);
        submit(By.id("authorize-" + platform));
    }

    private static void submit(By button) throws InterruptedException {
        WebElement page = browser.findElement(By.tagName("html"));
        browser.findElement(button).click();
        BrowserPages.awaitNextPage(browser, page);
    }

    private static WebElement active() {
        return browser.switchTo().activeElement();
    }

    private static Object script(String code) {
        return ((JavascriptExecutor) browser).executeScript(code);
    }

    /** The embedding page's frame once the hosted page in it has loaded. */
    private static WebElement awaitFrame() throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (System.nanoTime() < deadline) {
            WebElement frame = browser.findElement(By.id("connect"));
            browser.switchTo().frame(frame);
            boolean loaded = !browser.findElements(By.id("name-tiktok")).isEmpty();
            browser.switchTo().defaultContent();
            if (loaded) {
                return browser.findElement(By.id("connect"));
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the hosted page did not load in the frame within 20 s");
    }

    /** The first message of {@code type} the embedding page received (as the page recorded it). */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> awaitMessage(String type) throws InterruptedException {
        browser.switchTo().defaultContent();
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (System.nanoTime() < deadline) {
            for (Map<String, Object> message : (List<Map<String, Object>>) script("return window.heraldMessages;")) {
                if (message.get("data") instanceof Map<?, ?> data && type.equals(data.get("type"))) {
                    return message;
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no " + type + " message reached the embedding page within 20 s");
    }

    /** The whole page at 1280 and at 375 px wide (the window as tall as the page), then the window as it was. */
    private static void screenshots(String name) throws IOException {
        Dimension before = browser.manage().window().getSize();
        for (int width : new int[] {1280, 375}) {
            browser.manage().window().setSize(new Dimension(width, 900));
            long height = (Long) script("return Math.ceil(document.documentElement.getBoundingClientRect().height);");
            browser.manage().window().setSize(new Dimension(width, (int) Math.min(height + 140, 4000)));
            byte[] png = ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES);
            Files.write(SCREENSHOTS.resolve(name + "-" + width + ".png"), png);
        }
        browser.manage().window().setSize(before);
    }
}
