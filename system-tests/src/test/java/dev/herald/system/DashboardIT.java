package dev.herald.system;

import static dev.herald.system.RunningSuite.as;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.response.Response;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

/**
 * The dashboard as a customer's developer meets it: Debian's headless Chromium signs in through the OIDC
 * authorization-code flow against a real OIDC server process, creates a test key and uses it, and finds what the
 * spec promises of dashboard sessions (their own window, never an API request, roles, tenancy).
 */
class DashboardIT {
    private static DashboardSession session;
    private static WebDriver driver;

    @BeforeAll
    static void start() {
        session = DashboardSession.start();
        driver = session.driver();
    }

    @AfterAll
    static void stop() {
        if (session != null) {
            session.close();
        }
    }

    @Test
    void aDeveloperSignsInWithOidcCreatesAKeyAndUsesIt() throws Exception {
        String workspace = RunningSuite.newWorkspace("Dashboard Co");
        DashboardMember.add(workspace, "dana@example.org", "owner");

        session.signInThroughOidc("dana-subject", "dana@example.org");
        // Signing in lands on the usage page; the API-requests bar before any key exists.
        assertThat(driver.getCurrentUrl()).endsWith(DashboardSession.base(workspace, "test") + "/usage");
        assertThat(driver.findElement(By.id("mode-current")).getText()).isEqualToIgnoringCase("test");
        long usedBefore = apiRequestsUsed();
        session.open(workspace, "test", "keys");

        driver.findElement(By.id("key-name")).sendKeys("Backend");
        driver.findElement(By.id("create-key-submit")).click();
        String secret = session.waitFor(By.id("created-secret")).getText();
        assertThat(secret).matches("sk_test_[A-Za-z0-9]{32}");

        // A metered request, as a customer's first call would be: it shows in the log and in the meter.
        Response call = as(secret).get("/posts");
        assertThat(call.statusCode()).isEqualTo(200);
        String requestId = call.header("x-request-id");

        session.open(workspace, "test", "keys");
        assertThat(driver.findElement(By.id("keys")).getText())
                .contains("Backend")
                .contains(secret.substring(36))
                .doesNotContain(secret);

        // Request logs are written in batches: the page shows the request once its batch is in.
        WebElement logged = session.until(() -> {
            session.open(workspace, "test", "logs");
            return driver.findElements(By.cssSelector("tr[data-request-id='" + requestId + "']")).stream()
                    .findFirst()
                    .orElse(null);
        });
        assertThat(logged.getText()).contains("GET").contains("/api/v1/posts").contains("200");
        session.open(workspace, "test", "logs/" + requestId);
        assertThat(driver.findElement(By.id("request-id")).getText()).isEqualTo(requestId);
        session.open(workspace, "test", "keys");
        // The README's two screenshots: copied to docs/images when these pages change on purpose.
        session.screenshot("dashboard-keys.png");

        session.open(workspace, "test", "usage");
        assertThat(apiRequestsUsed()).isEqualTo(usedBefore + 1);
        session.screenshot("dashboard-usage.png");

        // A webhook endpoint on a local receiver, a test event, and its delivery as the receiver answered it.
        try (WebhooksIT.Receiver receiver = new WebhooksIT.Receiver(n -> 202)) {
            session.open(workspace, "test", "webhooks");
            driver.findElement(By.id("endpoint-url")).sendKeys(receiver.url());
            WebElement published = driver.findElement(By.cssSelector("input[name='event'][value='post.published']"));
            if (!published.isSelected()) {
                published.click();
            }
            driver.findElement(By.id("create-endpoint-submit")).click();
            assertThat(session.waitFor(By.id("created-secret")).getText()).isNotBlank();
            String endpointId = driver.findElement(By.cssSelector("#endpoints tr[data-endpoint-id]"))
                    .getAttribute("data-endpoint-id");
            session.open(workspace, "test", "webhooks/" + endpointId);
            driver.findElement(By.id("send-test")).click();
            assertThat(receiver.awaitRequests(1, 30_000)).hasSize(1);
            String answered = session.until(() -> {
                session.open(workspace, "test", "webhooks/" + endpointId);
                return driver.findElements(By.cssSelector("#deliveries td[data-response-status]")).stream()
                        .map(WebElement::getText)
                        .filter("202"::equals)
                        .findFirst()
                        .orElse(null);
            });
            assertThat(answered).isEqualTo("202");
        }

        // At a phone's 375 px every page reflows: nothing wider than the viewport but the tables' own scroll boxes.
        session.atWidth(DashboardSession.PHONE, () -> {
            for (String area : new String[] {"usage", "keys", "logs", "webhooks", "profiles", "posts", "members"}) {
                session.open(workspace, "test", area);
                session.assertNoSidewaysScroll(area + " at 375 px");
                session.screenshot("375px-" + area + ".png");
            }
        });
    }

    @Test
    void theSignInLinkHeraldUpHandsOutOpensTheDemoWorkspace() {
        driver.manage().deleteAllCookies();
        driver.get(RunningSuite.get().dashboardSignInUrl());
        session.until(() ->
                driver.getCurrentUrl().endsWith("/dashboard/w/ws_000000000000000000000001/test/usage") ? true : null);
        assertThat(driver.findElement(By.id("plan-name")).getText()).isNotBlank();
    }

    @Test
    void aViewerCannotCreateAKeyAndAnotherWorkspacesMemberFindsNothing() {
        String workspace = RunningSuite.newWorkspace("Viewed Co");
        DashboardMember.add(workspace, "vic@example.org", "viewer");
        String elsewhere = RunningSuite.newWorkspace("Elsewhere Co");
        DashboardMember.add(elsewhere, "otto@example.org", "owner");

        session.signInThroughOidc("vic-subject", "vic@example.org");
        session.open(workspace, "test", "keys");
        assertThat(driver.findElements(By.id("create-key"))).isEmpty();
        Response refused = session.form()
                .formParam("scope", "posts:read")
                .post(DashboardSession.base(workspace, "test") + "/keys");
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(refused.asString()).contains("cannot create or revoke API keys");

        session.signInThroughOidc("otto-subject", "otto@example.org");
        for (String area : new String[] {"keys", "members"}) {
            Response other = session.request().get(DashboardSession.base(workspace, "test") + "/" + area);
            assertThat(other.statusCode()).as(area).isEqualTo(404);
            assertThat(other.contentType()).startsWith("text/html");
            assertThat(other.asString()).doesNotContain("Viewed Co");
        }
    }

    @Test
    void theDashboardKeepsWorkingWhenTheApiAllowanceIsSpentAndHasItsOwnWindow() {
        String workspace = RunningSuite.newWorkspace("Spent Co");
        DashboardMember.add(workspace, "sam@example.org", "owner");
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

        session.signInThroughOidc("sam-subject", "sam@example.org");
        String keys = DashboardSession.base(workspace, "live") + "/keys";
        DashboardMember sam = session.member();
        assertThat(sam.get(keys).statusCode()).isEqualTo(200);

        // 120 dashboard requests a minute for this workspace and mode; the 121st in the same minute is refused. The
        // count starts wherever the sign-in left it, so at most 121 more reach the limit, whatever the minute.
        int refusedAt = 0;
        for (int i = 1; i <= 242 && refusedAt == 0; i++) {
            if (sam.get(keys).statusCode() == 429) {
                refusedAt = i;
            }
        }
        assertThat(refusedAt).as("the dashboard window ends at 120 a minute").isPositive();
        Response limited = sam.get(keys);
        assertThat(limited.statusCode()).isEqualTo(429);
        assertThat(limited.contentType()).startsWith("text/html");
        assertThat(limited.header("Retry-After")).matches("[1-9][0-9]?");
    }

    private static long apiRequestsUsed() {
        return Long.parseLong(driver.findElement(By.cssSelector("#meter-api_requests .used-count"))
                .getText()
                .replace(",", ""));
    }
}
