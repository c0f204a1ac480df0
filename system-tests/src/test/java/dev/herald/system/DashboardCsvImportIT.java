package dev.herald.system;

import static dev.herald.system.RunningSuite.as;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.http.ContentType;
import java.nio.file.Files;
import java.nio.file.Path;
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
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

/**
 * The dashboard's CSV import in Debian's headless Chromium against the real services: an owner uploads a file with
 * valid and invalid rows, sees each row's problems (the file's own and posts-service's dry run), schedules the valid
 * ones, and the API lists exactly those; submitting the same table again creates nothing new. At a phone's width the
 * dry run's rows stack as cards, so nothing scrolls sideways, not even inside the table's box.
 */
class DashboardCsvImportIT {
    private static final Pattern POST_ID = Pattern.compile("data-post-id=\"(pst_[a-z0-9]+)\"");
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
    void anOwnerUploadsACsvSeesItsProblemsAndSchedulesTheValidRows() throws Exception {
        DashboardWorkspace workspace = DashboardWorkspace.withLinkedInAccount("CSV import IT");
        String account = workspace.account();
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

        session.signInWithLink(workspace.id(), "owner");
        session.open(workspace.id(), "test", "posts");
        session.submit(By.id("import-posts"));
        assertThat(driver.getCurrentUrl()).endsWith(workspace.base() + "/posts/import");

        driver.findElement(By.id("import-file")).sendKeys(csv.toString());
        session.submit(By.id("import-submit"));

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
        session.atWidth(DashboardSession.PHONE, () -> {
            session.assertNoSidewaysScroll("the dry run at 375 px");
            assertThat(sidewaysScroll("#import-preview"))
                    .as("the dry run's table at 375 px scrolls inside its box by")
                    .isLessThanOrEqualTo(0);
        });
        session.screenshots("dashboard-csv-import-preview");
        // The table as it stands, for the second submission below.
        Map<String, String> form = Map.of(
                "csrf", hidden("csrf"),
                "upload", hidden("upload"),
                "rows", hidden("rows"));

        session.submit(By.id("schedule-submit"));
        assertThat(driver.findElement(By.id("results-summary")).getText()).isEqualTo("2 posts scheduled.");
        List<String> created = driver.findElements(By.cssSelector("#import-results tr[data-post-id]")).stream()
                .map(result -> result.getAttribute("data-post-id"))
                .toList();
        assertThat(created).hasSize(2);
        session.screenshots("dashboard-csv-import-results");

        String key = workspace.key();
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
        String again = session.request()
                .contentType(ContentType.URLENC)
                .formParams(form)
                .post(workspace.base() + "/posts/import/schedule")
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

    /** How far the box around {@code table} scrolls sideways (0 when it shows the whole table). */
    private static long sidewaysScroll(String table) {
        Object overflow = ((JavascriptExecutor) driver)
                .executeScript(
                        "const box = document.querySelector(arguments[0]).parentElement;"
                                + " return box.scrollWidth - box.clientWidth;",
                        table);
        return ((Number) overflow).longValue();
    }
}
