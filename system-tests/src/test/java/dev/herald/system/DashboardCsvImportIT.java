package dev.herald.system;

import static dev.herald.system.RunningSuite.as;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

/**
 * The dashboard's CSV import in Debian's headless Chromium against the real services: an owner uploads a file with
 * valid and invalid rows, sees each row's problems (the file's own and posts-service's dry run), schedules the valid
 * ones, and the API lists exactly those; submitting the same table again creates nothing new.
 */
class DashboardCsvImportIT {
    private static final Pattern POST_ID = Pattern.compile("data-post-id=\"(pst_[a-z0-9]+)\"");
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
    void anOwnerUploadsACsvSeesItsProblemsAndSchedulesTheValidRows() throws Exception {
        String workspace = RunningSuite.newWorkspace("CSV import IT");
        String key = RunningSuite.newKey(workspace, "test");
        String profile = created(key, "/profiles", "{\"name\":\"Corner Bakery\"}");
        String account = created(
                key,
                "/accounts",
                "{\"platform\":\"linkedin\",\"profile_id\":\"" + profile
                        + "\",\"name\":\"Bakery Page\",\"username\":\"cornerbakery\"}");
        Instant inTwoHours = Instant.now().plus(2, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS);
        Path csv = Files.createTempFile("herald-posts-", ".csv");
        Files.writeString(
                csv,
                "text,account_ids,scheduled_at,media_urls\r\n"
                        + "\"Fresh bread at nine, every day\"," + account + "," + inTwoHours + ",\r\n"
                        + "To an account that is not ours,acc_zzzzzzzzzzzzzzzzzzzzzzzz," + inTwoHours + ",\r\n"
                        + "Bad media," + account + "," + inTwoHours + ",http://cdn.example.org/bread.jpg\r\n"
                        + "\"Croissants, \"\"warm\"\"\"," + account + "," + inTwoHours.plus(1, ChronoUnit.HOURS)
                        + ",\r\n");

        signIn(workspace);
        String base = "/dashboard/w/" + workspace + "/test";
        open(base + "/posts");
        WebElement postsPage = driver.findElement(By.tagName("html"));
        driver.findElement(By.id("import-posts")).click();
        BrowserPages.awaitNextPage(driver, postsPage);
        assertThat(driver.getCurrentUrl()).endsWith(base + "/posts/import");

        driver.findElement(By.id("import-file")).sendKeys(csv.toString());
        WebElement uploadPage = driver.findElement(By.tagName("html"));
        driver.findElement(By.id("import-submit")).click();
        BrowserPages.awaitNextPage(driver, uploadPage);

        assertThat(row(1).getAttribute("class")).isEqualTo("row-ok");
        assertThat(row(1).getText()).contains("Fresh bread at nine, every day").contains(account);
        assertThat(row(2).getAttribute("class")).isEqualTo("row-bad");
        assertThat(row(2).getText()).contains("account_ids").contains("acc_zzzzzzzzzzzzzzzzzzzzzzzz");
        assertThat(row(3).getAttribute("class")).isEqualTo("row-bad");
        assertThat(row(3).getText()).contains("media_urls").contains("is not an https URL");
        assertThat(row(4).getAttribute("class")).isEqualTo("row-ok");
        assertThat(row(4).getText()).contains("Croissants, \"warm\"");
        WebElement schedule = driver.findElement(By.id("schedule-submit"));
        assertThat(schedule.getText()).isEqualTo("Schedule 2 posts");
        screenshots("dashboard-csv-import-preview");
        // The table as it stands, for the second submission below.
        Map<String, String> form = Map.of(
                "csrf", hidden("csrf"),
                "upload", hidden("upload"),
                "rows", hidden("rows"));

        WebElement previewPage = driver.findElement(By.tagName("html"));
        driver.findElement(By.id("schedule-submit")).click();
        BrowserPages.awaitNextPage(driver, previewPage);
        assertThat(driver.findElement(By.id("results-summary")).getText()).isEqualTo("2 posts scheduled.");
        List<String> created = driver.findElements(By.cssSelector("#import-results tr[data-post-id]")).stream()
                .map(result -> result.getAttribute("data-post-id"))
                .toList();
        assertThat(created).hasSize(2);
        screenshots("dashboard-csv-import-results");

        List<Map<String, Object>> listed = as(key).get("/posts")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("data");
        assertThat(listed).extracting(post -> (String) post.get("id")).containsExactlyInAnyOrderElementsOf(created);
        assertThat(listed)
                .extracting(post -> (String) post.get("text"))
                .containsExactlyInAnyOrder("Fresh bread at nine, every day", "Croissants, \"warm\"");

        // The same table submitted again (a second click, a resent form): the same posts, nothing new.
        String again = RestAssured.given()
                .baseUri(RunningSuite.get().gatewayUrl())
                .redirects()
                .follow(false)
                .cookie(
                        "herald_dashboard",
                        driver.manage().getCookieNamed("herald_dashboard").getValue())
                .contentType(ContentType.URLENC)
                .formParams(form)
                .post(base + "/posts/import/schedule")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        Matcher ids = POST_ID.matcher(again);
        List<String> replayed = ids.results().map(match -> match.group(1)).toList();
        assertThat(replayed).containsExactlyElementsOf(created);
        assertThat(again).contains("already scheduled by an earlier submission");
        assertThat(as(key).get("/posts")
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getList("data"))
                .hasSize(2);
    }

    private static WebElement row(int number) {
        return driver.findElement(By.cssSelector("#import-preview tr[data-row='" + number + "']"));
    }

    private static String hidden(String name) {
        return driver.findElement(By.cssSelector("#schedule-form input[name='" + name + "']"))
                .getAttribute("value");
    }

    /** The owner signs in through a one-time link the admin API made, as `./herald up` hands one out. */
    private static void signIn(String workspace) {
        String member = RunningSuite.admin()
                .body(Map.of("email", "owner-" + System.nanoTime() + "@example.org", "role", "owner"))
                .post("/admin/v1/workspaces/" + workspace + "/members")
                .then()
                .statusCode(201)
                .extract()
                .path("data.id");
        String link = RunningSuite.admin()
                .post("/admin/v1/workspaces/" + workspace + "/members/" + member + "/sign-in-links")
                .then()
                .statusCode(201)
                .extract()
                .path("data.url");
        driver.manage().deleteAllCookies();
        open(link.substring(link.indexOf("/dashboard/")));
        assertThat(driver.manage().getCookieNamed("herald_dashboard")).isNotNull();
    }

    private static void open(String path) {
        driver.get(RunningSuite.get().gatewayUrl() + path);
    }

    /**
     * The page at 1280 px and at a phone's 375 px, into target/screenshots; at 375 px nothing may be wider than the
     * viewport but the tables' own scroll boxes.
     */
    private static void screenshots(String name) throws Exception {
        Dimension before = driver.manage().window().getSize();
        try {
            driver.manage().window().setSize(new Dimension(1280, 1400));
            screenshot(name + "-1280.png");
            driver.manage().window().setSize(new Dimension(375, 800));
            Object overflow = ((JavascriptExecutor) driver)
                    .executeScript("return document.documentElement.scrollWidth - window.innerWidth;");
            assertThat(((Number) overflow).longValue()).as(name + " at 375 px").isLessThanOrEqualTo(0);
            screenshot(name + "-375.png");
        } finally {
            driver.manage().window().setSize(before);
        }
    }

    private static void screenshot(String name) throws Exception {
        Path file = Path.of("target", "screenshots", name);
        Files.createDirectories(file.getParent());
        Files.copy(
                ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE).toPath(),
                file,
                StandardCopyOption.REPLACE_EXISTING);
    }

    private static String created(String key, String path, String body) {
        return as(key).contentType(ContentType.JSON)
                .body(body)
                .post(path)
                .then()
                .statusCode(201)
                .extract()
                .path("data.id");
    }
}
