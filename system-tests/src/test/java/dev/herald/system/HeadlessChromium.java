package dev.herald.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.logging.Level;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

/** Debian's headless Chromium driven through Debian's chromedriver (no browser download), one per test class. */
final class HeadlessChromium implements AutoCloseable {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    private final ChromeDriverService service;
    private final WebDriver driver;

    private HeadlessChromium(ChromeDriverService service, WebDriver driver) {
        this.service = service;
        this.driver = driver;
    }

    static HeadlessChromium start() {
        // Never skipped: .ci/run installs Debian's chromium and chromium-driver when they are missing.
        assertThat(CHROMIUM).as("Debian's chromium (apt-get install chromium)").isExecutable();
        assertThat(CHROMEDRIVER)
                .as("Debian's chromedriver (apt-get install chromium-driver)")
                .isExecutable();
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .build();
        ChromeOptions options = new ChromeOptions()
                .setBinary(CHROMIUM.toFile())
                .addArguments(
                        "--headless=new",
                        "--no-sandbox",
                        "--disable-dev-shm-usage",
                        "--disable-gpu",
                        "--window-size=1100,1400",
                        "--no-first-run",
                        "--disable-extensions");
        // The console's messages (a Content-Security-Policy refusal, a file that failed to load), for tests to read.
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability(ChromeOptions.LOGGING_PREFS, logs);
        WebDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
        return new HeadlessChromium(service, driver);
    }

    WebDriver driver() {
        return driver;
    }

    @Override
    public void close() {
        driver.quit();
        service.stop();
    }
}
