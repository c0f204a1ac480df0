package dev.herald.system;

import java.time.Duration;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;

/** Waiting on pages in Chromium (selenium-support's waits are not on this module's classpath). */
final class BrowserPages {
    private BrowserPages() {}

    /**
     * A click that submits a form returns before the answer is shown (and, on a busy machine, before the old
     * page is gone), so wait until the old document is replaced and the new one has loaded.
     */
    static void awaitNextPage(WebDriver browser, WebElement oldPage) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (System.nanoTime() < deadline) {
            try {
                oldPage.getTagName();
            } catch (WebDriverException gone) {
                // Chromium reports a replaced document either as a stale element or, mid-navigation, as an inspector
                // error about a node that no longer belongs to the document: both mean the old page is gone.
                if (!(gone instanceof StaleElementReferenceException)
                        && !String.valueOf(gone.getMessage()).contains("does not belong to the document")) {
                    throw gone;
                }
                if ("complete".equals(((JavascriptExecutor) browser).executeScript("return document.readyState"))) {
                    return;
                }
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the page did not change within 20 s after submitting the form");
    }
}
