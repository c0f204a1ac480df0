package dev.herald.system;

import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.function.Supplier;
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
 * The dashboard in Debian's headless Chromium against the running suite, one per test class: a member signs in
 * (through the suite's OIDC server, or an admin one-time link as {@code ./herald up} hands out), opens a workspace's
 * pages in a mode, submits their forms, and takes screenshots at 1280 and 375 px into
 * {@code system-tests/target/screenshots}. What a browser would not send on its own goes over HTTP with the browser's
 * session ({@link #member()}). Tests of the pages without script use {@link DashboardMember} alone.
 */
final class DashboardSession implements AutoCloseable {
    static final int WIDE = 1280;
    static final int PHONE = 375;
    private static final Path SCREENSHOTS = Path.of("target", "screenshots");

    private final HeadlessChromium chromium;
    private final WebDriver driver;
    private String memberId;

    private DashboardSession(HeadlessChromium chromium) {
        this.chromium = chromium;
        this.driver = chromium.driver();
    }

    static DashboardSession start() {
        RunningSuite.get();
        return new DashboardSession(HeadlessChromium.start());
    }

    /** The path of a workspace's pages in {@code mode}: {@code /dashboard/w/{workspace}/{mode}}. */
    static String base(String workspace, String mode) {
        return "/dashboard/w/" + workspace + "/" + mode;
    }

    WebDriver driver() {
        return driver;
    }

    /** Signs the browser out of any earlier session and in through the suite's OIDC server as this person. */
    void signInThroughOidc(String subject, String email) {
        driver.manage().deleteAllCookies();
        open("/dashboard/login");
        driver.findElement(By.id("sign-in-oidc")).click();
        RunningSuite.oidcServer().signIn(driver, subject, email);
        until(() -> driver.getCurrentUrl().startsWith(RunningSuite.get().gatewayUrl() + "/dashboard/w/") ? true : null);
        assertSignedIn();
        memberId = null;
    }

    /** Signs the browser out of any earlier session and in as a new member of {@code role}, through a one-time link. */
    void signInWithLink(String workspace, String role) {
        memberId = DashboardMember.add(workspace, role + "-" + System.nanoTime() + "@example.org", role);
        driver.manage().deleteAllCookies();
        open(DashboardMember.signInLink(workspace, memberId));
        assertSignedIn();
    }

    private void assertSignedIn() {
        assertThat(driver.manage().getCookieNamed(DashboardMember.COOKIE))
                .as("the dashboard session cookie")
                .isNotNull();
    }

    /** Opens {@code path} on the gateway. */
    void open(String path) {
        driver.get(RunningSuite.get().gatewayUrl() + path);
    }

    /** Opens a page of a workspace in a mode: {@code area} is what follows the mode ({@code keys}, {@code posts/import}). */
    void open(String workspace, String mode, String area) {
        open(base(workspace, mode) + "/" + area);
    }

    /** Clicks {@code button}, which submits a form, and waits until the answer has replaced the page. */
    void submit(By button) throws InterruptedException {
        WebElement page = driver.findElement(By.tagName("html"));
        driver.findElement(button).click();
        BrowserPages.awaitNextPage(driver, page);
    }

    /** The CSRF token of the page's forms. */
    String csrf() {
        return driver.findElement(By.name("csrf")).getAttribute("value");
    }

    /** The browser's session as a member without script, for requests a browser would not make on its own. */
    DashboardMember member() {
        Cookie session = driver.manage().getCookieNamed(DashboardMember.COOKIE);
        assertThat(session).as("a signed-in session").isNotNull();
        return new DashboardMember(memberId, session.getValue());
    }

    /** An HTTP request with the browser's session cookie (redirects not followed). */
    RequestSpecification request() {
        return member().request();
    }

    /** A form post with the browser's session and the page's CSRF token. */
    RequestSpecification form() {
        return request().contentType(ContentType.URLENC).formParam("csrf", csrf());
    }

    WebElement waitFor(By element) {
        return until(() -> driver.findElements(element).stream().findFirst().orElse(null));
    }

    /** Polls {@code check} until it gives something, for 20 s (selenium-support's waits are not on the class path). */
    <T> T until(Supplier<T> check) {
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

    /**
     * The page at {@value #WIDE} px and at a phone's {@value #PHONE} px, as {@code <name>-1280.png} and {@code
     * <name>-375.png}; at 375 px nothing may be wider than the viewport ({@link #assertNoSidewaysScroll}).
     */
    void screenshots(String name) {
        atWidth(WIDE, () -> screenshot(name + "-" + WIDE + ".png"));
        atWidth(PHONE, () -> {
            assertNoSidewaysScroll(name + " at " + PHONE + " px");
            screenshot(name + "-" + PHONE + ".png");
        });
    }

    /** Runs {@code look} with the window {@code width} px wide, then gives the window its size back. */
    void atWidth(int width, Runnable look) {
        Dimension before = driver.manage().window().getSize();
        try {
            driver.manage().window().setSize(new Dimension(width, before.getHeight()));
            look.run();
        } finally {
            driver.manage().window().setSize(before);
        }
    }

    /** The page does not scroll sideways: {@code document.documentElement.scrollWidth <= innerWidth}. */
    void assertNoSidewaysScroll(String what) {
        Object overflow = ((JavascriptExecutor) driver)
                .executeScript("return document.documentElement.scrollWidth - window.innerWidth;");
        assertThat(((Number) overflow).longValue()).as(what).isLessThanOrEqualTo(0);
    }

    /** The page as it is now, into {@code target/screenshots/<name>}. */
    void screenshot(String name) {
        try {
            Path file = SCREENSHOTS.resolve(name);
            Files.createDirectories(file.getParent());
            Files.copy(
                    ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE).toPath(),
                    file,
                    StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        chromium.close();
    }
}
