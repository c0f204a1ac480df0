package dev.herald.system;

import dev.herald.local.HeraldService;
import dev.herald.local.LocalSuite;
import dev.herald.local.LocalSuiteConfig;
import io.restassured.RestAssured;
import io.restassured.config.HttpClientConfig;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * The whole suite, started once per test JVM exactly as {@code ./herald up} starts it (same launcher,
 * built artifacts, embedded PostgreSQL and Kafka) but on free ports and a temporary state directory, so a
 * developer's running suite is never touched. Tests reach it only over HTTP, through the gateway.
 */
public final class RunningSuite {
    /** The starter plan's monthly API requests in the system-test suite. */
    public static final int STARTER_API_REQUESTS = 5;
    /** The scale plan's per-minute rate limit in the system-test suite. */
    public static final int SCALE_PER_MINUTE = 2000;

    /**
     * The delivery watchdog's graces in the suite (10 and 15 minutes by default), so StuckDeliveryIT waits a minute and
     * a half rather than ten. Far above any outage the fault tests cause in CI (a few seconds and a restart), so no other
     * test's delivery is ever overdue. The long fault run ({@code bench/faults.sh}) gives {@code
     * -Dherald.watchdog.grace=PT10M}: on a machine with a load average of 50, the Kafka broker, PostgreSQL and
     * delivery-worker killed in turn held posts due for more than 90 s, and the watchdog failed them as it should.
     */
    public static final Duration WATCHDOG_GRACE = Duration.parse(System.getProperty("herald.watchdog.grace", "PT90S"));
    /**
     * Locks of the provider fakes, one per platform, for test classes that steer or read a platform's fake (its request
     * journal, armed failures, token states, latest posts). Test classes run concurrently (junit-platform.properties);
     * those that share a platform's fake run one at a time.
     */
    public static final String FACEBOOK_FAKE = "fake:facebook";

    public static final String INSTAGRAM_FAKE = "fake:instagram";
    public static final String LINKEDIN_FAKE = "fake:linkedin";
    public static final String PINTEREST_FAKE = "fake:pinterest";
    public static final String TIKTOK_FAKE = "fake:tiktok";
    public static final String YOUTUBE_FAKE = "fake:youtube";

    /** The dashboard's OIDC client at {@link #oidcServer()}, as the gateway knows it. */
    public static final String DASHBOARD_CLIENT_ID = "herald-dashboard";
    /** Any 32 characters: the mock OIDC server accepts every secret; the gateway needs one of this length. */
    public static final String DASHBOARD_CLIENT_SECRET = "system-test-dashboard-secret-32c";

    private static LocalSuite suite;
    private static OidcServer oidcServer;

    static {
        // RestAssured waits forever for an answer by default: a request the suite never answers should fail its test
        // with a stack trace within minutes, not hold it until JUnit's 10-minute timeout.
        RestAssured.config = RestAssured.config()
                .httpClient(HttpClientConfig.httpClientConfig()
                        .setParam("http.connection.timeout", 10_000)
                        .setParam("http.socket.timeout", 120_000));
    }

    private RunningSuite() {}

    public static synchronized LocalSuite get() {
        if (suite == null) {
            Path root = Path.of(System.getProperty("herald.root", ".."))
                    .toAbsolutePath()
                    .normalize();
            Path state;
            try {
                state = Files.createTempDirectory("herald-system-test");
                // The dashboard signs in there; it answers before the gateway starts and reads its discovery.
                oidcServer = OidcServer.start("suite");
            } catch (IOException e) {
                throw new IllegalStateException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(oidcServer::close, "herald-system-test-oidc-stop"));
            // The starter plan gets an allowance a test can spend: the real catalog's smallest is 2,000 requests
            // at 30 a minute. No other system test uses the starter plan. The scale plan (tests that poll, and
            // ContractFuzzIT, which sends thousands of requests in minutes) gets SCALE_PER_MINUTE rather than 300.
            // The provider fakes stand in for the six platforms, so live accounts and posts run end to end (LiveIT).
            suite = LocalSuite.start(LocalSuiteConfig.builder(root)
                    .stateDir(state)
                    .freePorts()
                    // As long as ./herald up waits by default; a machine shared with other builds may need longer.
                    .readinessTimeout(Duration.ofSeconds(Integer.getInteger("herald.suite.readiness-seconds", (int)
                            LocalSuiteConfig.DEFAULT_READINESS_TIMEOUT.toSeconds())))
                    .providerFakes(true)
                    // fsync off unless -Dherald.postgres.durable=true (bench/faults.sh): CI's SIGKILL of PostgreSQL
                    // loses nothing the operating system already holds either way, and the suite runs faster.
                    .durablePostgres(durablePostgres())
                    .serviceEnvironment(Map.ofEntries(
                            Map.entry(
                                    "HERALD_USAGE_PLAN_OVERRIDES",
                                    "starter.api_requests=" + STARTER_API_REQUESTS + ",scale.per_minute="
                                            + SCALE_PER_MINUTE),
                            // A killed delivery-worker's leases lapse in 10 s rather than 60 (the sandbox's
                            // slowest publication takes 3 s), so the fault test does not wait a minute.
                            Map.entry("HERALD_DELIVERY_LEASE", "PT10S"),
                            Map.entry("HERALD_DELIVERY_PUBLISH_TIMEOUT", "PT5S"),
                            // A target held for an account that needs re-authorization fails after 60 s rather than
                            // 24 h (ConnectionHealthIT waits for that deadline).
                            Map.entry("HERALD_DELIVERY_REAUTH_HOLD", "PT60S"),
                            // An uncertain target is first looked at after 1 s rather than 30 (LivePinterestIT).
                            Map.entry("HERALD_DELIVERY_RECONCILE_FIRST_LOOK", "PT1S"),
                            Map.entry("HERALD_DELIVERY_RECONCILE_INTERVAL", "PT1S"),
                            // Overdue deliveries (StuckDeliveryIT): see WATCHDOG_GRACE; posts-service repeats a
                            // handover
                            // unanswered for 2 minutes (at least the grace).
                            Map.entry("HERALD_DELIVERY_WATCHDOG_DUE_GRACE", WATCHDOG_GRACE.toString()),
                            Map.entry("HERALD_DELIVERY_WATCHDOG_LEASE_GRACE", WATCHDOG_GRACE.toString()),
                            Map.entry("HERALD_DELIVERY_WATCHDOG_INTERVAL", "PT5S"),
                            Map.entry(
                                    "HERALD_POSTS_HANDOVER_TIMEOUT",
                                    (WATCHDOG_GRACE.compareTo(Duration.ofMinutes(2)) > 0
                                                    ? WATCHDOG_GRACE
                                                    : Duration.ofMinutes(2))
                                            .toString()),
                            Map.entry("HERALD_POSTS_HANDOVER_CHECK_INTERVAL", "PT5S"),
                            // TikTok's smallest chunks (LiveTikTokIT uploads two); TikTok's status and an Instagram
                            // Reel's container asked about every second, not every 30.
                            Map.entry("HERALD_PUBLISHERS_TIKTOK_CHUNK_SIZE", "5242880"),
                            Map.entry("HERALD_PUBLISHERS_TIKTOK_CHECK_INTERVAL", "PT1S"),
                            Map.entry("HERALD_PUBLISHERS_INSTAGRAM_REELS_CHECK_INTERVAL", "PT1S"),
                            Map.entry("HERALD_PUBLISHERS_LINKEDIN_VIDEO_CHECK_INTERVAL", "PT1S"),
                            // The analytics refreshers (every minute by default) would call the platform fakes between
                            // a
                            // live test's clearing of a fake's journal and its reading of it; LiveAnalyticsIT reads on
                            // demand.
                            Map.entry("HERALD_ANALYTICS_REFRESH_INTERVAL", "PT1H"),
                            Map.entry("HERALD_ACCOUNTS_ANALYTICS_REFRESH_INTERVAL", "PT1H"),
                            // Webhook retries after 1 s, 1 s and 1 s (four attempts) instead of 5 s to 10 h, a 2 s
                            // request timeout instead of 10 s, and a killed webhooks-service's leases lapse in 5 s.
                            Map.entry("HERALD_WEBHOOKS_RETRY_SCHEDULE", "PT1S,PT1S,PT1S"),
                            Map.entry("HERALD_WEBHOOKS_REQUEST_TIMEOUT", "PT2S"),
                            Map.entry("HERALD_WEBHOOKS_LEASE", "PT5S"),
                            // KeyRotationIT: the services read their key files again every second (10 s by
                            // default), internal JWTs live 30 s (10 minutes), so the old signing key may go after
                            // 35 s, and the re-seal jobs look for values sealed with a retired key every 2 s (1 min).
                            Map.entry("HERALD_INTERNAL_JWT_RELOAD_INTERVAL", "PT1S"),
                            Map.entry("HERALD_INTERNAL_JWT_TTL", "PT30S"),
                            Map.entry("HERALD_SECRET_CIPHER_RELOAD_INTERVAL", "PT1S"),
                            Map.entry("HERALD_SECRET_CIPHER_RESEAL_INTERVAL", "PT2S")))
                    .serviceEnvironment(
                            HeraldService.API_GATEWAY,
                            Map.of(
                                    "HERALD_OIDC_ISSUER",
                                    oidcServer.issuer(),
                                    "HERALD_OIDC_CLIENT_ID",
                                    DASHBOARD_CLIENT_ID,
                                    "HERALD_OIDC_CLIENT_SECRET",
                                    DASHBOARD_CLIENT_SECRET,
                                    // Every hosted page of every test comes from 127.0.0.1: the live tests connect and
                                    // reconnect dozens of accounts a minute, past the 120 an end user's address gets.
                                    "HERALD_CONNECT_PER_ADDRESS_PER_MINUTE",
                                    "3000"))
                    .build());
            Runtime.getRuntime().addShutdownHook(new Thread(suite::close, "herald-system-test-suite-stop"));
        }
        return suite;
    }

    /**
     * Whether the suite's PostgreSQL runs with the production durability settings, {@code fsync} on as well as
     * {@code synchronous_commit} ({@code -Dherald.postgres.durable=true}).
     */
    public static boolean durablePostgres() {
        return Boolean.getBoolean("herald.postgres.durable");
    }

    /** The OIDC provider the suite's gateway signs dashboard users in at (see {@link OidcServer#signIn}). */
    public static OidcServer oidcServer() {
        get();
        return oidcServer;
    }

    public static String baseUrl() {
        return get().baseUrl();
    }

    /** A request to the provider fakes' control API ({@code /_fakes/...}). */
    public static RequestSpecification fakes() {
        return RestAssured.given().baseUri(get().providerFakesUrl());
    }

    /** A request to the public API with this key. */
    public static RequestSpecification as(String apiKey) {
        return RestAssured.given().baseUri(baseUrl()).header("Authorization", "Bearer " + apiKey);
    }

    /**
     * {@code GET /usage} with this key: its {@code data} (meters as {@code <meter>.used}). The read is itself one API
     * request, already in the {@code api_requests} it shows.
     */
    public static JsonPath usage(String apiKey) {
        return as(apiKey)
                .get("/usage")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .setRootPath("data");
    }

    /** A request to the admin API (the dashboard back end). */
    public static RequestSpecification admin() {
        return RestAssured.given()
                .baseUri(get().gatewayUrl())
                .header("Authorization", "Bearer " + get().adminToken())
                .contentType(ContentType.JSON);
    }

    /** A fresh workspace, so tests never see each other's data. */
    public static String newWorkspace(String name) {
        return admin().body("{\"name\":\"" + name + "\"}")
                .post("/admin/v1/workspaces")
                .then()
                .statusCode(201)
                .extract()
                .path("data.id");
    }

    /** A new key's secret; without scopes, a key with every scope. */
    public static String newKey(String workspaceId, String mode, String... scopes) {
        String body = scopes.length == 0
                ? "{\"mode\":\"" + mode + "\"}"
                : "{\"mode\":\"" + mode + "\",\"scopes\":[\"" + String.join("\",\"", scopes) + "\"]}";
        return admin().body(body)
                .post("/admin/v1/workspaces/" + workspaceId + "/api-keys")
                .then()
                .statusCode(201)
                .extract()
                .path("data.secret");
    }
}
