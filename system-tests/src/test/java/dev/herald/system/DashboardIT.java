package dev.herald.system;

import static dev.herald.system.RunningSuite.as;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.RestAssured;
import io.restassured.response.Response;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Cookie;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;

/**
 * The dashboard as a customer's developer meets it: Debian's headless Chromium signs in through the OIDC
 * authorization-code flow against a real OIDC server process, creates a test key and uses it, and finds what the
 * spec promises of dashboard sessions (their own window, never an API request, roles, tenancy).
 */
class DashboardIT {
    private static HeadlessChromium chromium;
    private static WebDriver driver;

    @BeforeAll
    static void start() {
        RunningSuite.get();
        chromium = HeadlessChromium.start();
        driver = chromium.driver();
    }

    @AfterAll
    static void stop() {
        if (chromium != null) {
            chromium.close();
        }
    }

    @Test
    void aDeveloperSignsInWithOidcCreatesAKeyAndUsesIt() throws Exception {
        String workspace = RunningSuite.newWorkspace("Dashboard Co");
        addMember(workspace, "dana@example.org", "owner");

        signIn("dana-subject", "dana@example.org");
        // Signing in lands on the usage page; the API-requests bar before any key exists.
        assertThat(driver.getCurrentUrl()).endsWith("/dashboard/w/" + workspace + "/test/usage");
        assertThat(driver.findElement(By.id("mode-current")).getText()).isEqualToIgnoringCase("test");
        long usedBefore = apiRequestsUsed();
        open("/dashboard/w/" + workspace + "/test/keys");

        driver.findElement(By.id("key-name")).sendKeys("Backend");
        driver.findElement(By.id("create-key-submit")).click();
        String secret = waitFor(By.id("created-secret")).getText();
        assertThat(secret).matches("sk_test_[A-Za-z0-9]{32}");

        // A metered request, as a customer's first call would be: it shows in the log and in the meter.
        Response call = as(secret).get("/posts");
        assertThat(call.statusCode()).isEqualTo(200);
        String requestId = call.header("x-request-id");

        open("/dashboard/w/" + workspace + "/test/keys");
        assertThat(driver.findElement(By.id("keys")).getText())
                .contains("Backend")
                .contains(secret.substring(36))
                .doesNotContain(secret);

        // Request logs are written in batches: the page shows the request once its batch is in.
        WebElement logged = until(() -> {
            open("/dashboard/w/" + workspace + "/test/logs");
            return driver.findElements(By.cssSelector("tr[data-request-id='" + requestId + "']")).stream()
                    .findFirst()
                    .orElse(null);
        });
        assertThat(logged.getText()).contains("GET").contains("/api/v1/posts").contains("200");
        open("/dashboard/w/" + workspace + "/test/logs/" + requestId);
        assertThat(driver.findElement(By.id("request-id")).getText()).isEqualTo(requestId);
        open("/dashboard/w/" + workspace + "/test/keys");
        screenshot("dashboard-keys.png");

        open("/dashboard/w/" + workspace + "/test/usage");
        assertThat(apiRequestsUsed()).isEqualTo(usedBefore + 1);
        screenshot("dashboard-usage.png");

        // A webhook endpoint on a local receiver, a test event, and its delivery as the receiver answered it.
        try (WebhooksIT.Receiver receiver = new WebhooksIT.Receiver(n -> 202)) {
            open("/dashboard/w/" + workspace + "/test/webhooks");
            driver.findElement(By.id("endpoint-url")).sendKeys(receiver.url());
            WebElement published = driver.findElement(By.cssSelector("input[name='event'][value='post.published']"));
            if (!published.isSelected()) {
                published.click();
            }
            driver.findElement(By.id("create-endpoint-submit")).click();
            assertThat(waitFor(By.id("created-secret")).getText()).isNotBlank();
            String endpointId = driver.findElement(By.cssSelector("#endpoints tr[data-endpoint-id]"))
                    .getAttribute("data-endpoint-id");
            open("/dashboard/w/" + workspace + "/test/webhooks/" + endpointId);
            driver.findElement(By.id("send-test")).click();
            assertThat(receiver.awaitRequests(1, 30_000)).hasSize(1);
            String answered = until(() -> {
                open("/dashboard/w/" + workspace + "/test/webhooks/" + endpointId);
                return driver.findElements(By.cssSelector("#deliveries td[data-response-status]")).stream()
                        .map(WebElement::getText)
                        .filter("202"::equals)
                        .findFirst()
                        .orElse(null);
            });
            assertThat(answered).isEqualTo("202");
        }

        // At a phone's 375 px every page reflows: nothing wider than the viewport but the tables' own scroll boxes.
        driver.manage().window().setSize(new Dimension(375, 800));
        try {
            for (String area : new String[] {"usage", "keys", "logs", "webhooks", "profiles", "posts", "members"}) {
                open("/dashboard/w/" + workspace + "/test/" + area);
                Object overflow = ((JavascriptExecutor) driver)
                        .executeScript("return document.documentElement.scrollWidth - window.innerWidth;");
                assertThat(((Number) overflow).longValue())
                        .as(area + " at 375 px")
                        .isLessThanOrEqualTo(0);
                screenshot("375px-" + area + ".png");
            }
        } finally {
            driver.manage().window().setSize(new Dimension(1100, 1400));
        }
    }

    @Test
    void theSignInLinkHeraldUpHandsOutOpensTheDemoWorkspace() {
        driver.manage().deleteAllCookies();
        driver.get(RunningSuite.get().dashboardSignInUrl());
        until(() ->
                driver.getCurrentUrl().endsWith("/dashboard/w/ws_000000000000000000000001/test/usage") ? true : null);
        assertThat(driver.findElement(By.id("plan-name")).getText()).isNotBlank();
    }

    @Test
    void aViewerCannotCreateAKeyAndAnotherWorkspacesMemberFindsNothing() {
        String workspace = RunningSuite.newWorkspace("Viewed Co");
        addMember(workspace, "vic@example.org", "viewer");
        String elsewhere = RunningSuite.newWorkspace("Elsewhere Co");
        addMember(elsewhere, "otto@example.org", "owner");

        signIn("vic-subject", "vic@example.org");
        open("/dashboard/w/" + workspace + "/test/keys");
        assertThat(driver.findElements(By.id("create-key"))).isEmpty();
        Response refused = page().formParam("csrf", csrfOnPage())
                .formParam("scope", "posts:read")
                .post("/dashboard/w/" + workspace + "/test/keys");
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(refused.asString()).contains("cannot create or revoke API keys");

        signIn("otto-subject", "otto@example.org");
        for (String area : new String[] {"keys", "members"}) {
            Response other = page().get("/dashboard/w/" + workspace + "/test/" + area);
            assertThat(other.statusCode()).as(area).isEqualTo(404);
            assertThat(other.contentType()).startsWith("text/html");
            assertThat(other.asString()).doesNotContain("Viewed Co");
        }
    }

    @Test
    void theDashboardKeepsWorkingWhenTheApiAllowanceIsSpentAndHasItsOwnWindow() {
        String workspace = RunningSuite.newWorkspace("Spent Co");
        addMember(workspace, "sam@example.org", "owner");
        String key = RunningSuite.newKey(workspace, "live");
        RunningSuite.admin()
                .body(Map.of("mode", "live", "plan", "starter", "plan_source", "comp"))
                .put("/admin/v1/workspaces/" + workspace + "/plan")
                .then()
                .statusCode(200);
        int spentAt = 0;
        for (int i = 1; i <= RunningSuite.STARTER_API_REQUESTS + 1; i++) {
            if (as(key).get("/posts").statusCode() == 429) {
                spentAt = i;
                break;
            }
        }
        assertThat(spentAt)
                .as("the live key is refused once the allowance is spent")
                .isPositive();
        as(key).get("/usage").then().statusCode(429);

        signIn("sam-subject", "sam@example.org");
        String keys = "/dashboard/w/" + workspace + "/live/keys";
        assertThat(page().get(keys).statusCode()).isEqualTo(200);

        // 120 dashboard requests a minute for this workspace and mode; the 121st in the same minute is refused. The
        // count starts wherever the sign-in left it, so at most 121 more reach the limit, whatever the minute.
        int refusedAt = 0;
        for (int i = 1; i <= 242 && refusedAt == 0; i++) {
            if (page().get(keys).statusCode() == 429) {
                refusedAt = i;
            }
        }
        assertThat(refusedAt).as("the dashboard window ends at 120 a minute").isPositive();
        Response limited = page().get(keys);
        assertThat(limited.statusCode()).isEqualTo(429);
        assertThat(limited.contentType()).startsWith("text/html");
        assertThat(limited.header("Retry-After")).matches("[1-9][0-9]?");
    }

    /** Signs the browser out of any earlier session and in through the OIDC server as this person. */
    private static void signIn(String subject, String email) {
        driver.manage().deleteAllCookies();
        open("/dashboard/login");
        driver.findElement(By.id("sign-in-oidc")).click();
        RunningSuite.oidcServer().signIn(driver, subject, email);
        until(() -> driver.getCurrentUrl().startsWith(RunningSuite.get().gatewayUrl() + "/dashboard/w/") ? true : null);
        assertThat(driver.manage().getCookieNamed("herald_dashboard")).isNotNull();
    }

    private static long apiRequestsUsed() {
        return Long.parseLong(driver.findElement(By.cssSelector("#meter-api_requests .used-count"))
                .getText()
                .replace(",", ""));
    }

    private static void addMember(String workspace, String email, String role) {
        RunningSuite.admin()
                .body(Map.of("email", email, "role", role))
                .post("/admin/v1/workspaces/" + workspace + "/members")
                .then()
                .statusCode(201);
    }

    private static void open(String path) {
        driver.get(RunningSuite.get().gatewayUrl() + path);
    }

    private static WebElement waitFor(By element) {
        return until(() -> driver.findElements(element).stream().findFirst().orElse(null));
    }

    /** Polls {@code check} until it gives something (selenium-support's waits are not on the class path). */
    private static <T> T until(java.util.function.Supplier<T> check) {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (true) {
            try {
                T found = check.get();
                if (found != null) {
                    return found;
                }
            } catch (WebDriverException pageChanging) {
                // The page is being replaced; look again.
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("gave up waiting at " + driver.getCurrentUrl() + ":\n"
                        + driver.findElement(By.tagName("body")).getText());
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    /** An HTTP request carrying the browser's dashboard session, for what a browser would not send on its own. */
    private static io.restassured.specification.RequestSpecification page() {
        Cookie session = driver.manage().getCookieNamed("herald_dashboard");
        return RestAssured.given()
                .baseUri(RunningSuite.get().gatewayUrl())
                .redirects()
                .follow(false)
                .cookie("herald_dashboard", session.getValue());
    }

    private static String csrfOnPage() {
        return driver.findElement(By.name("csrf")).getAttribute("value");
    }

    /**
     * Screenshots to look at: target/screenshots; the README's two (dashboard-keys, dashboard-usage) are copied to
     * docs/images when the pages change on purpose.
     */
    private static void screenshot(String name) throws Exception {
        Path file = Path.of("target", "screenshots", name);
        Files.createDirectories(file.getParent());
        Files.copy(
                ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE).toPath(),
                file,
                StandardCopyOption.REPLACE_EXISTING);
    }
}
