package dev.herald.system;

import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;

/**
 * The API reference page as an integrator opens it: {@code /api/v1/docs} through the gateway in Debian's headless
 * Chromium shows one block per operation of the served document, each of its webhooks, and every error code, with
 * nothing refused by the page's Content-Security-Policy (no file from anywhere else).
 */
class ApiReferenceIT {
    private static final Set<String> HTTP_METHODS = Set.of("get", "post", "put", "patch", "delete");

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
    void thePageShowsEveryOperationWebhookAndErrorCodeOfTheServedDocument() throws Exception {
        JsonPath document = RestAssured.given()
                .baseUri(RunningSuite.baseUrl())
                .get("/openapi.json")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        List<String> operations = new ArrayList<>();
        Map<String, Map<String, Object>> paths = document.getMap("paths");
        paths.forEach((template, item) -> item.keySet().stream()
                .filter(HTTP_METHODS::contains)
                .forEach(method -> operations.add(method.toUpperCase() + " " + template)));
        Map<String, Object> webhookItems = document.getMap("webhooks");
        List<String> webhooks = new ArrayList<>(webhookItems.keySet());
        List<String> errorCodes = document.getList("components.schemas.ApiError.properties.code.enum");
        assertThat(operations).hasSizeGreaterThan(40);

        driver.manage().window().setSize(new Dimension(1280, 1600));
        driver.get(RunningSuite.get().gatewayUrl() + "/api/v1/docs");
        // Swagger UI fetches and renders the document after the page loads; the error catalogue is shown last.
        until(() -> (Boolean) script("return !document.getElementById('error-catalogue').hidden"));

        List<String> shown = blocks(".opblock-tag-section .opblock");
        assertThat(shown).as("one block per operation").hasSameSizeAs(operations);
        assertThat(shown).containsExactlyInAnyOrderElementsOf(operations);
        // Swagger UI 5 shows OpenAPI 3.1 webhooks in a section of their own, one POST block each.
        assertThat(blocks(".webhooks .opblock"))
                .containsExactlyInAnyOrderElementsOf(
                        webhooks.stream().map(name -> "POST " + name).toList());
        @SuppressWarnings("unchecked")
        List<String> rows = (List<String>) script("return Array.from(document.querySelectorAll('#error-codes tr'),"
                + " row => row.id.substring('error-'.length))");
        assertThat(rows).containsExactlyElementsOf(errorCodes);
        assertThat(text("#error-conflict")).contains("409").contains("details.reason");

        // Nothing the page needs was refused (the CSP would log each refusal) and nothing failed to load.
        List<String> problems = driver.manage().logs().get(LogType.BROWSER).getAll().stream()
                .filter(entry -> entry.getLevel().intValue() >= Level.WARNING.intValue())
                .map(LogEntry::getMessage)
                .toList();
        assertThat(problems).isEmpty();

        screenshot("api-reference.png");
        driver.manage().window().setSize(new Dimension(375, 800));
        try {
            driver.navigate().refresh();
            until(() -> (Boolean) script("return !document.getElementById('error-catalogue').hidden"));
            assertThat(blocks(".opblock-tag-section .opblock")).hasSameSizeAs(operations);
            // Nothing wider than a phone: the error table scrolls in its own box, its intro's code wraps.
            assertThat(((Number) script("return document.documentElement.scrollWidth - window.innerWidth;"))
                            .longValue())
                    .as("how far the page scrolls sideways at 375 px")
                    .isLessThanOrEqualTo(0);
            screenshot("375px-api-reference.png");
        } finally {
            driver.manage().window().setSize(new Dimension(1100, 1400));
        }
    }

    /** "METHOD path" of each operation block the selector finds, as Swagger UI labels them. */
    @SuppressWarnings("unchecked")
    private static List<String> blocks(String selector) {
        return (List<String>) script(
                "return Array.from(document.querySelectorAll(arguments[0]), block =>"
                        + " block.querySelector('.opblock-summary-method').textContent + ' '"
                        + " + block.querySelector('[data-path]').getAttribute('data-path'))",
                selector);
    }

    private static String text(String selector) {
        return (String) script("return document.querySelector(arguments[0]).textContent", selector);
    }

    private static Object script(String script, Object... arguments) {
        return ((JavascriptExecutor) driver).executeScript(script, arguments);
    }

    private static void until(java.util.function.Supplier<Boolean> condition) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (System.nanoTime() < deadline) {
            if (Boolean.TRUE.equals(condition.get())) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the API reference did not render within 30 s");
    }

    /** Screenshots to look at: target/screenshots; the 1280 px one is copied to docs/images when the page changes. */
    private static void screenshot(String name) throws Exception {
        Path file = Path.of("target", "screenshots", name);
        Files.createDirectories(file.getParent());
        Files.copy(
                ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE).toPath(),
                file,
                StandardCopyOption.REPLACE_EXISTING);
    }
}
