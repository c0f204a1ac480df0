package dev.herald.system;

import dev.herald.local.FreePorts;
import dev.herald.local.JavaCommand;
import dev.herald.local.ServiceProcess;
import dev.herald.local.StaleProcesses;
import dev.herald.local.StateDirectory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;

/**
 * A real OpenID Connect provider for the dashboard's sign-in: navikt's mock-oauth2-server in its own JVM, on
 * 127.0.0.1 and a free port, with its interactive login page (a form where the user types any subject and
 * optional claims). It accepts any client id and secret, and its issuer is {@code http://127.0.0.1:<port>/herald}.
 * It runs on the jars the {@code mock-oidc-server} module collects, not on this classpath: it needs netty 4.2,
 * which the Quarkus BOM would pin to 4.1. Its output goes to {@code target/oidc-server/logs/<name>.log}.
 */
public final class OidcServer implements AutoCloseable {
    public static final String ISSUER_ID = "herald";
    private static final String MAIN_CLASS = "no.nav.security.mock.oauth2.StandaloneMockOAuth2ServerKt";
    private static final String CONFIG = "{\"interactiveLogin\": true, \"httpServer\": \"NettyWrapper\"}";
    /** Its log ({@code logs/<name>.log}) and pid file ({@code pids/<name>.pid}). */
    private static final StateDirectory STATE = new StateDirectory(Path.of("target", "oidc-server"));

    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration SIGN_IN_TIMEOUT = Duration.ofSeconds(20);

    private final ServiceProcess process;
    private final String issuer;

    private OidcServer(ServiceProcess process, String issuer) {
        this.process = process;
        this.issuer = issuer;
    }

    /** Starts the server and returns once its discovery document answers; {@code name} names its log file. */
    public static OidcServer start(String name) throws IOException, InterruptedException {
        // A test JVM killed before its shutdown hooks ran left its server running: stopped here, by its pid file.
        new StaleProcesses(STATE, Map.of(name, MAIN_CLASS), Duration.ofSeconds(5), line -> {}).reap();
        int port = FreePorts.next();
        ServiceProcess process = new ServiceProcess(
                name,
                port,
                JavaCommand.with("-Xms32m", "-Xmx128m", "-XX:+UseSerialGC", "-cp", libs() + "/*", MAIN_CLASS),
                Map.of(
                        "SERVER_HOSTNAME",
                        "127.0.0.1",
                        "SERVER_PORT",
                        Integer.toString(port),
                        "JSON_CONFIG",
                        CONFIG,
                        // Every request and token it issues, so that a failed sign-in test can be followed in the log.
                        "LOG_LEVEL",
                        "DEBUG"),
                STATE.log(name),
                STATE.pidFile(name));
        process.start();
        OidcServer server = new OidcServer(process, "http://127.0.0.1:" + port + "/" + ISSUER_ID);
        try {
            server.awaitDiscovery();
        } catch (IOException | InterruptedException | RuntimeException e) {
            server.close();
            throw e;
        }
        return server;
    }

    private static Path libs() {
        Path root = Path.of(System.getProperty("herald.root", "..")).toAbsolutePath();
        Path libs =
                root.resolve("mock-oidc-server/target/mock-oidc-server-libs").normalize();
        if (!Files.isDirectory(libs)) {
            throw new IllegalStateException(libs + " does not exist; build the mock-oidc-server module first");
        }
        return libs;
    }

    private void awaitDiscovery() throws IOException, InterruptedException {
        HttpClient client =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        HttpRequest request = HttpRequest.newBuilder(URI.create(discoveryUrl()))
                .timeout(Duration.ofSeconds(2))
                .build();
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() - deadline < 0) {
            if (!process.isAlive()) {
                throw new IllegalStateException(
                        "the OIDC server exited with " + process.exitCode() + "; see " + process.log());
            }
            try {
                if (client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException notListeningYet) {
                // Connection refused until the JVM has started and bound its port.
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException(
                "the OIDC server did not answer within " + START_TIMEOUT + "; see " + process.log());
    }

    /** {@code http://127.0.0.1:<port>/herald}: the {@code iss} of its tokens and the base of its endpoints. */
    public String issuer() {
        return issuer;
    }

    public String discoveryUrl() {
        return issuer + "/.well-known/openid-configuration";
    }

    public String tokenEndpoint() {
        return issuer + "/token";
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /**
     * Completes the login form the browser shows (it is on this server's {@code /authorize} page, where a relying
     * party sent it): {@code subject} becomes the tokens' {@code sub}, and the claims add {@code email} and
     * {@code email_verified: true}. Returns once the browser has left this server for the relying party's
     * redirect URI.
     */
    public void signIn(WebDriver driver, String subject, String email) {
        String page = driver.getCurrentUrl();
        if (page == null || !page.startsWith(issuer + "/authorize")) {
            throw new IllegalStateException("the browser is not on " + issuer + "/authorize but on " + page);
        }
        driver.findElement(By.name("username")).sendKeys(subject);
        driver.findElement(By.name("claims"))
                .sendKeys("{\"email\": \"" + jsonEscaped(email) + "\", \"email_verified\": true}");
        driver.findElement(By.cssSelector("form input[type=submit]")).click();
        awaitRedirectAway(driver);
    }

    private void awaitRedirectAway(WebDriver driver) {
        long deadline = System.nanoTime() + SIGN_IN_TIMEOUT.toNanos();
        while (System.nanoTime() - deadline < 0) {
            String url = String.valueOf(driver.getCurrentUrl());
            if (!url.startsWith(issuer)
                    && "complete".equals(((JavascriptExecutor) driver).executeScript("return document.readyState"))) {
                return;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the sign-in to finish", e);
            }
        }
        throw new AssertionError("the browser still shows " + driver.getCurrentUrl() + " " + SIGN_IN_TIMEOUT
                + " after signing in; the page says: "
                + driver.findElement(By.tagName("body")).getText());
    }

    private static String jsonEscaped(String text) {
        return text.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    /** Stops the server's JVM (SIGTERM, SIGKILL after 5 s) and whatever it started. */
    @Override
    public void close() {
        try {
            process.stop(Duration.ofSeconds(5));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
