package dev.herald.system;

import static dev.herald.system.RunningSuite.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.herald.system.WebhooksIT.Endpoint;
import dev.herald.system.WebhooksIT.Receiver;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

/**
 * Connection health in test mode, as an integrator builds their reconnect flow before going live: a sandbox account
 * named {@code reauth_...} turns {@code reauth_required} shortly after connecting, the customer's webhook receiver
 * gets a signed {@code account.reauth_required} with a reconnect link, posts to it are refused with that link, a
 * post scheduled before it broke waits, and the link, followed in Chromium, reconnects the same account, which
 * turns healthy, sends {@code account.reconnected}, and lets the waiting post publish. The suite holds such a
 * target for {@link #HOLD} (RunningSuite; 24 h by default). Through the gateway only.
 */
class ConnectionHealthIT {
    /** HERALD_DELIVERY_REAUTH_HOLD in RunningSuite. */
    static final Duration HOLD = Duration.ofSeconds(60);

    private static HeadlessChromium chromium;
    private static WebDriver browser;
    private Receiver receiver;

    @BeforeAll
    static void startBrowser() {
        RunningSuite.get();
        chromium = HeadlessChromium.start();
        browser = chromium.driver();
    }

    @AfterAll
    static void stopBrowser() {
        if (chromium != null) {
            chromium.close();
        }
    }

    @AfterEach
    void closeReceiver() {
        if (receiver != null) {
            receiver.close();
        }
    }

    @Test
    void aReauthAccountBreaksTellsTheReceiverAndItsLinkReconnectsItSoTheWaitingPostPublishes() throws Exception {
        String key = PostsPipelineIT.testKey("Reauth flow");
        receiver = new Receiver(request -> 204);
        Endpoint endpoint = WebhooksIT.register(
                key, receiver.url(), "account.reauth_required", "account.reconnected", "post.published");
        String username = "reauth_" + UUID.randomUUID().toString().substring(0, 8);
        String accountId = PostsPipelineIT.account(key, "linkedin", username);
        Instant dueAt = Instant.now().plus(40, ChronoUnit.SECONDS).truncatedTo(ChronoUnit.SECONDS);
        String postId = PostsPipelineIT.accepted(key, scheduledPost(accountId, "Held until reconnected", dueAt));

        JsonPath broken = awaitAccount(key, accountId, health("reauth_required"), Duration.ofSeconds(60));
        assertThat(broken.getString("data.health.status")).isEqualTo("reauth_required");
        assertThat(broken.getString("data.health.reason")).isNotBlank();
        assertThat(broken.getString("data.status")).as("keeps its slot").isEqualTo("connected");
        assertThat(ids(as(key).queryParam("health", "reauth_required").get("/accounts")))
                .contains(accountId);
        assertThat(ids(as(key).queryParam("health", "healthy").get("/accounts")))
                .doesNotContain(accountId);

        JsonPath event = awaitEvent(endpoint, "account.reauth_required");
        assertThat(event.getString("data.account.id")).isEqualTo(accountId);
        assertThat(event.getString("data.account.health.status")).isEqualTo("reauth_required");
        String reconnectUrl = event.getString("data.reconnect_url");
        assertThat(reconnectUrl).startsWith(RunningSuite.get().gatewayUrl() + "/connect/reconnect/");

        JsonPath refused = PostsPipelineIT.post(
                        key,
                        UUID.randomUUID().toString(),
                        "{\"text\":\"Not now\",\"account_ids\":[\"" + accountId + "\"]}")
                .then()
                .statusCode(422)
                .body("error.code", equalTo("account_reauth_required"))
                .body("error.details.account_id", equalTo(accountId))
                .extract()
                .jsonPath();
        assertThat(refused.getString("error.details.reconnect_url")).contains("/connect/reconnect/");

        // Past its time, the scheduled post waits for the account rather than fail, and says why.
        sleepUntil(dueAt);
        JsonPath waiting = awaitHeldTarget(key, postId);
        assertThat(waiting.getString("data.targets[0].error.details.reconnect_url"))
                .contains("/connect/reconnect/");

        browser.get(reconnectUrl);
        assertThat(browser.getCurrentUrl())
                .as("the link opens a connect session")
                .contains("/connect/");
        assertThat(browser.getPageSource()).contains(username);
        WebElement page = browser.findElement(By.tagName("html"));
        browser.findElement(By.id("authorize-linkedin")).click();
        BrowserPages.awaitNextPage(browser, page);

        JsonPath healthy = awaitAccount(key, accountId, health("healthy"), Duration.ofSeconds(20));
        assertThat(healthy.getString("data.id")).isEqualTo(accountId);
        assertThat(healthy.getString("data.username")).isEqualTo(username);
        JsonPath reconnected = awaitEvent(endpoint, "account.reconnected");
        assertThat(reconnected.getString("data.account.id")).isEqualTo(accountId);
        assertThat(reconnected.getString("data.account.health.status")).isEqualTo("healthy");

        JsonPath published = PostsPipelineIT.awaitPost(
                key, postId, post -> "published".equals(post.getString("data.status")), 60_000);
        assertThat(published.getString("data.status")).as(published.prettify()).isEqualTo("published");
        // Reconnected, it stays healthy: the sandbox breaks a reauth_ account on its first authorization only.
        Thread.sleep(25_000);
        assertThat(as(key).get("/accounts/" + accountId).then().extract().<String>path("data.health.status"))
                .isEqualTo("healthy");
    }

    @Test
    void aReconnectLinkOnDemandReconnectsTheSameAccountAndAnotherTenantCannotMintOne() {
        String key = PostsPipelineIT.testKey("Reconnect link");
        String accountId = PostsPipelineIT.account(
                key, "tiktok", "plain_" + UUID.randomUUID().toString().substring(0, 8));
        JsonPath link = as(key).post("/accounts/" + accountId + "/reconnect-link")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(link.getString("data.account_id")).isEqualTo(accountId);
        assertThat(link.getString("data.url")).startsWith(RunningSuite.get().gatewayUrl() + "/connect/reconnect/");
        assertThat(Duration.between(Instant.now(), Instant.parse(link.getString("data.expires_at"))))
                .isBetween(Duration.ofDays(7).minusMinutes(5), Duration.ofDays(7));
        assertThat(as(key).get("/accounts/" + accountId).then().extract().<String>path("data.health.status"))
                .isEqualTo("healthy");

        String otherKey = PostsPipelineIT.testKey("Reconnect link, other tenant");
        as(otherKey).post("/accounts/" + accountId + "/reconnect-link").then().statusCode(404);
        as(key).queryParam("health", "sleepy").get("/accounts").then().statusCode(400);
    }

    /**
     * The post once delivery has taken its target and holds it for the account (status {@code queued} again, with the
     * reason), within 30 s; the post is not final meanwhile.
     */
    static JsonPath awaitHeldTarget(String key, String postId) throws InterruptedException {
        JsonPath held =
                PostsPipelineIT.awaitPost(key, postId, post -> post.get("data.targets[0].error") != null, 30_000);
        assertThat(held.getString("data.targets[0].status")).as(held.prettify()).isEqualTo("queued");
        assertThat(held.getString("data.targets[0].error.code")).isEqualTo("account_reauth_required");
        assertThat(held.getString("data.status")).isNotIn(PostsPipelineIT.FINAL);
        return held;
    }

    static String scheduledPost(String accountId, String text, Instant dueAt) {
        return "{\"text\":\"" + text + " " + UUID.randomUUID() + "\",\"account_ids\":[\"" + accountId
                + "\"],\"scheduled_at\":\"" + dueAt + "\"}";
    }

    static Predicate<JsonPath> health(String status) {
        return account -> status.equals(account.getString("data.health.status"));
    }

    static JsonPath awaitAccount(String key, String accountId, Predicate<JsonPath> done, Duration patience)
            throws InterruptedException {
        long deadline = System.currentTimeMillis() + patience.toMillis();
        JsonPath account = as(key).get("/accounts/" + accountId)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        while (!done.test(account) && System.currentTimeMillis() < deadline) {
            Thread.sleep(500);
            account = as(key).get("/accounts/" + accountId)
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath();
        }
        assertThat(done.test(account)).as(account.prettify()).isTrue();
        return account;
    }

    private JsonPath awaitEvent(Endpoint endpoint, String type) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 30_000;
        while (System.currentTimeMillis() < deadline) {
            for (Receiver.Request request : receiver.requests()) {
                JsonPath body = request.verify(endpoint.secret());
                if (type.equals(body.getString("type"))) {
                    return body;
                }
            }
            Thread.sleep(200);
        }
        throw new AssertionError("no " + type + " event reached the receiver within 30 s; got "
                + receiver.requests().size() + " requests");
    }

    private static List<String> ids(io.restassured.response.Response list) {
        return list.then().statusCode(200).extract().jsonPath().getList("data.id");
    }

    static void sleepUntil(Instant instant) throws InterruptedException {
        long millis = Duration.between(Instant.now(), instant).toMillis();
        if (millis > 0) {
            Thread.sleep(millis);
        }
    }
}
