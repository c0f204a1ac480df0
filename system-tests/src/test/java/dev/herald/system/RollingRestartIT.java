package dev.herald.system;

import static dev.herald.system.PostsPipelineIT.FINAL;
import static dev.herald.system.PostsPipelineIT.account;
import static dev.herald.system.PostsPipelineIT.linkedIn;
import static dev.herald.system.PostsPipelineIT.post;
import static dev.herald.system.PostsPipelineIT.testKey;
import static dev.herald.system.RunningSuite.as;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.local.PostgresServer;
import dev.herald.system.WebhooksIT.Endpoint;
import dev.herald.system.WebhooksIT.Receiver;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A rolling deploy, as Kubernetes does one: every service the publishing path crosses is stopped with SIGTERM and
 * started again, one after the other, while customers keep creating posts and webhooks keep going out. Clients
 * behave as the API asks them to: a 503 (or no connection at all while the gateway restarts) is retried with the
 * same {@code Idempotency-Key}. Afterwards every accepted post is final, no target was published twice (the sandbox
 * provider counts publications per idempotency token), every post's webhook arrived and the meters are exact.
 */
class RollingRestartIT {
    static final List<String> RESTARTED = List.of("api-gateway", "posts-service", "delivery-worker", "webhooks-service",
            "usage-service");
    /** One workspace per client, each well inside the scale plan's 300 requests a minute. */
    static final int CLIENTS = 3;
    static final long PACE_MILLIS = 400;

    record Tenant(String key, String brand, String slow, Endpoint endpoint, List<String> posts) {
    }

    @Test
    void aRollingRestartOfEveryServiceLosesNothingAndPublishesNothingTwice() throws Exception {
        try (Receiver receiver = new Receiver(n -> 200)) {
            List<Tenant> tenants = new ArrayList<>();
            for (int i = 0; i < CLIENTS; i++) {
                String key = testKey("Rolling restart " + i);
                // slow_ deliveries take 3 s in the sandbox, so some are in flight whenever delivery-worker stops.
                tenants.add(new Tenant(key, account(key, "linkedin", "brand"), account(key, "facebook", "slow_brand"),
                        WebhooksIT.register(key, receiver.url(), "post.published", "post.partially_failed", "post.failed",
                                "post.canceled"),
                        new CopyOnWriteArrayList<>()));
            }

            AtomicBoolean running = new AtomicBoolean(true);
            Map<String, AtomicInteger> retries = new ConcurrentHashMap<>();
            ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
            List<Future<?>> work = new ArrayList<>();
            for (Tenant tenant : tenants) {
                work.add(clients.submit(() -> {
                    for (int n = 0; running.get(); n++) {
                        String body = linkedIn(n % 4 == 0 ? tenant.slow() : tenant.brand());
                        tenant.posts().add(createRetryingAsAsked(tenant.key(), body, retries));
                        Thread.sleep(PACE_MILLIS);
                    }
                    return null;
                }));
            }
            Thread.sleep(3000);
            for (String service : RESTARTED) {
                RunningSuite.get().stop(service);
                RunningSuite.get().start(service);
                Thread.sleep(2000);
            }
            running.set(false);
            for (Future<?> future : work) {
                future.get();
            }
            clients.shutdown();

            Map<String, String> providerPostIds = new HashMap<>();
            Set<String> accepted = new HashSet<>();
            for (Tenant tenant : tenants) {
                accepted.addAll(tenant.posts());
                List<Map<String, Object>> posts = awaitAllFinal(tenant.key(), tenant.posts().size());
                assertThat(posts).extracting(post -> (String) post.get("id")).containsExactlyInAnyOrderElementsOf(tenant.posts());
                for (Map<String, Object> post : posts) {
                    assertThat(post.get("status")).as("post %s", post.get("id")).isEqualTo("published");
                    @SuppressWarnings("unchecked")
                    Map<String, Object> target = ((List<Map<String, Object>>) post.get("targets")).get(0);
                    providerPostIds.put(post.get("id") + ":" + target.get("account_id"), (String) target.get("provider_post_id"));
                }
                Map<String, Object> publications = PostsPipelineIT.awaitPublications(tenant.key(),
                        meter -> meter.get("used").equals(tenant.posts().size()) && meter.get("reserved").equals(0));
                assertThat(publications).containsEntry("used", tenant.posts().size()).containsEntry("reserved", 0);
            }
            assertThat(providerPostIds.values()).doesNotContainNull().doesNotHaveDuplicates();
            int publishCalls = assertPublishedOnceEach(providerPostIds);

            // Every published post's event reached the receiver, signed with its endpoint's secret (at least once:
            // a delivery cut off by a restart is sent again under the same event id).
            Set<String> announced = new HashSet<>();
            Map<String, String> postByEvent = new HashMap<>();
            int checked = 0;
            long deadline = System.currentTimeMillis() + 60_000;
            while (announced.size() < accepted.size() && System.currentTimeMillis() < deadline) {
                Thread.sleep(500);
                List<Receiver.Request> requests = receiver.requests();
                for (Receiver.Request request : requests.subList(checked, requests.size())) {
                    JsonPath event = request.verify(secretOf(request, tenants));
                    assertThat(event.getString("type")).isEqualTo("post.published");
                    String post = event.getString("data.id");
                    String earlier = postByEvent.putIfAbsent(event.getString("id"), post);
                    if (earlier != null) {
                        assertThat(earlier).as("the post event %s names", event.getString("id")).isEqualTo(post);
                    }
                    announced.add(post);
                }
                checked = requests.size();
            }
            assertThat(announced).containsExactlyInAnyOrderElementsOf(accepted);

            System.out.printf("rolling restart of %s: %d posts accepted, all published once (%d sandbox publish calls),"
                            + " %d webhook requests; client retries by cause %s%n",
                    RESTARTED, accepted.size(), publishCalls, receiver.requests().size(), retries);
            assertThat(accepted.size()).as("posts created during the restarts").isGreaterThan(RESTARTED.size() * CLIENTS);
        }
    }

    /**
     * Creates a post as a well-behaved client does: a 503, a 409 {@code idempotency_key_in_use} (the first attempt
     * is still being answered), a 429 (after its {@code Retry-After}) or no connection is retried with the same key;
     * anything else fails the test.
     */
    private static String createRetryingAsAsked(String key, String body, Map<String, AtomicInteger> retries)
            throws InterruptedException {
        String idempotencyKey = UUID.randomUUID().toString();
        long deadline = System.currentTimeMillis() + 120_000;
        while (true) {
            String cause;
            try {
                Response response = post(key, idempotencyKey, body);
                int status = response.statusCode();
                if (status == 202 || status == 200) {
                    return response.path("data.id");
                }
                assertThat(status).as("answer to a post: %s", response.asString()).isIn(409, 429, 503);
                if (status == 409) {
                    assertThat(response.<String>path("error.code")).isEqualTo("idempotency_key_in_use");
                }
                cause = String.valueOf(status);
                if (status == 429) {
                    retries.computeIfAbsent(cause, c -> new AtomicInteger()).incrementAndGet();
                    Thread.sleep(Long.parseLong(response.header("Retry-After")) * 1000);
                    continue;
                }
            } catch (AssertionError e) {
                throw e;
            } catch (RuntimeException e) {
                // The gateway itself is restarting: no connection, or one closed as it stopped.
                cause = e.getClass().getSimpleName();
            }
            retries.computeIfAbsent(cause, c -> new AtomicInteger()).incrementAndGet();
            assertThat(System.currentTimeMillis()).as("a post still not accepted after two minutes of retries").isLessThan(deadline);
            Thread.sleep(250);
        }
    }

    /** The secret of the endpoint of the tenant whose post the event is about. */
    private static String secretOf(Receiver.Request request, List<Tenant> tenants) {
        String postId = JsonPath.from(new String(request.body(), StandardCharsets.UTF_8)).getString("data.id");
        for (Tenant tenant : tenants) {
            if (tenant.posts().contains(postId)) {
                return tenant.endpoint().secret();
            }
        }
        throw new AssertionError("a webhook about a post no client created: " + postId);
    }

    /** The sandbox provider's own record: one publication per target, the one the post shows. Returns the calls made. */
    private static int assertPublishedOnceEach(Map<String, String> providerPostIds) throws Exception {
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
            assertThat(publications).isEqualTo(providerPostIds.size());
            return calls;
        }
    }

    /** Every post of the workspace, page by page, once all {@code expected} are final (or as they are after two minutes). */
    private static List<Map<String, Object>> awaitAllFinal(String key, int expected) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 120_000;
        List<Map<String, Object>> posts = List.of();
        while (System.currentTimeMillis() < deadline) {
            posts = allPosts(key);
            if (posts.size() == expected && posts.stream().allMatch(post -> FINAL.contains((String) post.get("status")))) {
                return posts;
            }
            Thread.sleep(1000);
        }
        return posts;
    }

    private static List<Map<String, Object>> allPosts(String key) {
        List<Map<String, Object>> posts = new ArrayList<>();
        String cursor = null;
        do {
            var request = as(key).queryParam("limit", 100);
            if (cursor != null) {
                request.queryParam("cursor", cursor);
            }
            JsonPath page = request.get("/posts").then().statusCode(200).extract().jsonPath();
            posts.addAll(page.getList("data"));
            cursor = page.getString("meta.next_cursor");
        } while (cursor != null);
        return posts;
    }
}
