package dev.herald.system;

import static dev.herald.system.PostsPipelineIT.FINAL;
import static dev.herald.system.PostsPipelineIT.account;
import static dev.herald.system.PostsPipelineIT.linkedIn;
import static dev.herald.system.PostsPipelineIT.testKey;
import static dev.herald.system.RunningSuite.as;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.local.PostgresServer;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The delivery-worker is killed (SIGKILL, as a crash) in the middle of a batch of 200 posts and started again:
 * every post must end final, no target may be published twice (the sandbox provider counts its publications
 * per idempotency token, like a real provider would), and the meters must be exact.
 */
class DeliveryWorkerFaultIT {
    static final int POSTS = 200;
    static final int WORKSPACES = 2;
    static final String WORKER = "delivery-worker";

    record Tenant(String key, String brand, String slow, List<String> posts) {
    }

    @Test
    void aWorkerKilledMidBatchLosesNothingAndPublishesNothingTwice() throws Exception {
        List<Tenant> tenants = new ArrayList<>();
        for (int i = 0; i < WORKSPACES; i++) {
            String key = testKey("Fault " + i);
            // slow_ deliveries take 3 s in the sandbox, so some are in flight when the worker dies.
            tenants.add(new Tenant(key, account(key, "linkedin", "brand"), account(key, "facebook", "slow_brand"),
                    java.util.Collections.synchronizedList(new ArrayList<>())));
        }
        ExecutorService clients = Executors.newFixedThreadPool(8);
        AtomicInteger sent = new AtomicInteger();
        List<Future<?>> work = new ArrayList<>();
        for (int i = 0; i < POSTS; i++) {
            int n = i;
            work.add(clients.submit(() -> {
                Tenant tenant = tenants.get(n % WORKSPACES);
                String account = n % 4 == 0 ? tenant.slow() : tenant.brand();
                String id = as(tenant.key()).contentType(ContentType.JSON).header("Idempotency-Key", UUID.randomUUID().toString())
                        .body(linkedIn(account)).post("/posts").then().statusCode(202).extract().path("data.id");
                tenant.posts().add(id);
                sent.incrementAndGet();
            }));
            if (i == POSTS / 2) {
                // Halfway through the batch, with deliveries running, the worker crashes.
                while (sent.get() < POSTS / 3 || slowDeliveriesInFlight() == 0) {
                    Thread.sleep(20);
                }
                RunningSuite.get().kill(WORKER);
            }
        }
        for (Future<?> future : work) {
            future.get();
        }
        clients.shutdown();
        Thread.sleep(2000);
        RunningSuite.get().start(WORKER);

        Map<String, String> providerPostIds = new HashMap<>();
        int resumed = 0;
        for (Tenant tenant : tenants) {
            assertThat(tenant.posts()).hasSize(POSTS / WORKSPACES);
            List<Map<String, Object>> posts = awaitAllFinal(tenant.key(), POSTS / WORKSPACES);
            assertThat(posts).hasSize(POSTS / WORKSPACES);
            for (Map<String, Object> post : posts) {
                assertThat(post.get("status")).as("post %s", post.get("id")).isEqualTo("published");
                @SuppressWarnings("unchecked")
                Map<String, Object> target = ((List<Map<String, Object>>) post.get("targets")).get(0);
                providerPostIds.put(post.get("id") + ":" + target.get("account_id"), (String) target.get("provider_post_id"));
                if ((Integer) target.get("attempts") > 1) {
                    resumed++;
                }
            }
            JsonPath usage = as(tenant.key()).get("/usage").then().statusCode(200).extract().jsonPath();
            long deadline = System.currentTimeMillis() + 30_000;
            while (usage.getInt("data.publications.used") != POSTS / WORKSPACES && System.currentTimeMillis() < deadline) {
                Thread.sleep(500);
                usage = as(tenant.key()).get("/usage").then().statusCode(200).extract().jsonPath();
            }
            assertThat(usage.getInt("data.publications.used")).isEqualTo(POSTS / WORKSPACES);
            assertThat(usage.getInt("data.publications.reserved")).isZero();
        }
        assertThat(providerPostIds.values()).doesNotContainNull().doesNotHaveDuplicates();
        // The crash really interrupted deliveries: those it cut off mid-call were attempted again.
        assertThat(resumed).as("targets attempted again after the crash").isPositive();

        // The sandbox provider's own record: one publication per target, and it is the one the post shows.
        PostgresServer postgres = RunningSuite.get().postgres();
        try (Connection connection = DriverManager.getConnection(postgres.jdbcUrl("herald_delivery"), postgres.username(),
                postgres.password());
             PreparedStatement statement = connection.prepareStatement(
                     "select token, provider_post_id, publish_calls from sandbox_publications where token = any (?)")) {
            statement.setArray(1, connection.createArrayOf("text", providerPostIds.keySet().toArray()));
            int publications = 0;
            int calls = 0;
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    publications++;
                    calls += rows.getInt("publish_calls");
                    assertThat(rows.getString("provider_post_id")).isEqualTo(providerPostIds.get(rows.getString("token")));
                }
            }
            assertThat(publications).isEqualTo(POSTS);
            System.out.printf("fault run: %d targets published once each; %d resumed after the crash; %d sandbox publish calls%n",
                    POSTS, resumed, calls);
        }
    }

    /**
     * Deliveries of slow_ accounts whose 3 s provider call runs. A delivery is {@code publishing} from its claim on,
     * but its attempt is counted only once the usage check passed and the call starts; a kill before that leaves
     * nothing to resume.
     */
    private static long slowDeliveriesInFlight() throws Exception {
        PostgresServer postgres = RunningSuite.get().postgres();
        try (Connection connection = DriverManager.getConnection(postgres.jdbcUrl("herald_delivery"), postgres.username(),
                postgres.password());
             PreparedStatement statement = connection.prepareStatement(
                     "select count(*) from deliveries where status = 'publishing' and attempts > 0"
                             + " and account_username like 'slow\\_%'");
             ResultSet rows = statement.executeQuery()) {
            rows.next();
            return rows.getLong(1);
        }
    }

    private static List<Map<String, Object>> awaitAllFinal(String key, int expected) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 120_000;
        List<Map<String, Object>> posts = List.of();
        while (System.currentTimeMillis() < deadline) {
            posts = as(key).get("/posts?limit=100").then().statusCode(200).extract().jsonPath().getList("data");
            if (posts.size() == expected && posts.stream().allMatch(post -> FINAL.contains((String) post.get("status")))) {
                return posts;
            }
            Thread.sleep(1000);
        }
        return posts;
    }
}
