package dev.herald.system;

import static dev.herald.system.PostsPipelineIT.FINAL;
import static dev.herald.system.PostsPipelineIT.account;
import static dev.herald.system.PostsPipelineIT.linkedIn;
import static dev.herald.system.PostsPipelineIT.post;
import static dev.herald.system.PostsPipelineIT.testKey;
import static dev.herald.system.RunningSuite.as;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.system.WebhooksIT.Endpoint;
import dev.herald.system.WebhooksIT.Receiver;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
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

/**
 * Customers creating posts at a steady pace while something goes wrong, and the check that nothing went wrong for
 * them: one client per workspace, each workspace with a webhook endpoint on a local receiver. Clients behave as the
 * API asks them to: a 503, a 409 {@code idempotency_key_in_use} (the first attempt is still being answered), a 429
 * (after its {@code Retry-After}) or no connection at all is retried with the same {@code Idempotency-Key}; any
 * other answer fails the run. Every fourth post goes to a {@code slow_} account, whose sandbox publication takes 3 s,
 * so deliveries are always in flight.
 */
final class SteadyPostLoad implements AutoCloseable {
    /** Between two posts of one client: each workspace stays well inside the scale plan's 300 requests a minute. */
    private static final long PACE_MILLIS = 400;

    record Tenant(
            String key, String brand, String slow, Endpoint endpoint, List<String> posts, AtomicInteger requestsSent) {}

    /**
     * What a run did, for the test's log line (bench/reliability.sh reads its figures from it): every post final
     * (none stuck, none lost), each published once, the meters exact.
     */
    record Summary(
            int posts, int publishCalls, int webhookRequests, int requestsSent, Map<String, AtomicInteger> retries) {
        @Override
        public String toString() {
            return posts + " posts accepted and published once each (" + publishCalls
                    + " sandbox publish calls, one per target), " + webhookRequests
                    + " webhook requests; 0 lost, 0 stuck, meter drift 0 (publications used = posts and 0 reserved,"
                    + " accounts unchanged, api_requests within the " + posts + " accepted and " + requestsSent
                    + " sent); client retries by cause " + retries;
        }
    }

    private final Receiver receiver;
    private final List<Tenant> tenants = new ArrayList<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Map<String, AtomicInteger> retries = new ConcurrentHashMap<>();
    private final ExecutorService clients;
    private final List<Future<?>> work = new ArrayList<>();
    /** Each workspace's {@code GET /usage} before its client's first post. */
    private final Map<String, JsonPath> usageBefore = new HashMap<>();

    private SteadyPostLoad(String name, int clientCount) throws Exception {
        receiver = new Receiver(n -> 200);
        for (int i = 0; i < clientCount; i++) {
            String key = testKey(name + " " + i);
            tenants.add(new Tenant(
                    key,
                    account(key, "linkedin", "brand"),
                    account(key, "facebook", "slow_brand"),
                    WebhooksIT.register(
                            key,
                            receiver.url(),
                            "post.published",
                            "post.partially_failed",
                            "post.failed",
                            "post.canceled"),
                    new CopyOnWriteArrayList<>(),
                    new AtomicInteger()));
        }
        for (Tenant tenant : tenants) {
            usageBefore.put(tenant.key(), RunningSuite.usage(tenant.key()));
        }
        clients = Executors.newFixedThreadPool(clientCount);
    }

    /** Workspaces set up and their clients creating posts. */
    static SteadyPostLoad start(String name, int clients) throws Exception {
        SteadyPostLoad load = new SteadyPostLoad(name, clients);
        for (Tenant tenant : load.tenants) {
            load.work.add(load.clients.submit(() -> {
                for (int n = 0; load.running.get(); n++) {
                    String body = linkedIn(n % 4 == 0 ? tenant.slow() : tenant.brand());
                    tenant.posts().add(load.createRetryingAsAsked(tenant, body));
                    Thread.sleep(PACE_MILLIS);
                }
                return null;
            }));
        }
        return load;
    }

    /** Posts accepted so far. */
    int accepted() {
        return tenants.stream().mapToInt(tenant -> tenant.posts().size()).sum();
    }

    /**
     * Stops the clients, then checks what customers must be able to count on: every accepted post published, by
     * exactly one publication that the post shows; its webhook received, validly signed; the meters exact.
     */
    Summary finishAndVerify() throws Exception {
        running.set(false);
        for (Future<?> future : work) {
            future.get();
        }
        // Read before any other request of the check, so the API requests since usageBefore are the clients' own.
        Map<String, JsonPath> usageAfterLoad = new HashMap<>();
        for (Tenant tenant : tenants) {
            usageAfterLoad.put(tenant.key(), RunningSuite.usage(tenant.key()));
        }
        Map<String, String> providerPostIds = new HashMap<>();
        Set<String> accepted = new HashSet<>();
        for (Tenant tenant : tenants) {
            accepted.addAll(tenant.posts());
            List<Map<String, Object>> posts =
                    awaitAllFinal(tenant.key(), tenant.posts().size());
            assertThat(posts)
                    .extracting(post -> (String) post.get("id"))
                    .containsExactlyInAnyOrderElementsOf(tenant.posts());
            for (Map<String, Object> post : posts) {
                assertThat(post.get("status")).as("post %s", post.get("id")).isEqualTo("published");
                @SuppressWarnings("unchecked")
                Map<String, Object> target = ((List<Map<String, Object>>) post.get("targets")).get(0);
                providerPostIds.put(
                        post.get("id") + ":" + target.get("account_id"), (String) target.get("provider_post_id"));
            }
            // A request cut off between its reservation and its commit (posts- or usage-service killed) leaves a
            // reservation that posts-service gives back once the Idempotency-Key claim timeout (60 s) has passed.
            Map<String, Object> publications = PostsPipelineIT.awaitPublications(
                    tenant.key(),
                    meter -> meter.get("used").equals(tenant.posts().size())
                            && meter.get("reserved").equals(0),
                    Duration.ofSeconds(90));
            assertThat(publications)
                    .containsEntry("used", tenant.posts().size())
                    .containsEntry("reserved", 0);
            assertOtherMetersExact(tenant, usageBefore.get(tenant.key()), usageAfterLoad.get(tenant.key()));
        }
        assertThat(providerPostIds.values()).doesNotContainNull().doesNotHaveDuplicates();
        int publishCalls = assertPublishedOnceEach(providerPostIds);
        assertEveryPostAnnounced(accepted);
        int requestsSent =
                tenants.stream().mapToInt(tenant -> tenant.requestsSent().get()).sum();
        return new Summary(accepted.size(), publishCalls, receiver.requests().size(), requestsSent, retries);
    }

    /** Targets whose attempt count shows they were attempted again (a crash cut their provider call off). */
    int resumedTargets() {
        int resumed = 0;
        for (Tenant tenant : tenants) {
            for (Map<String, Object> post : allPosts(tenant.key())) {
                @SuppressWarnings("unchecked")
                Map<String, Object> target = ((List<Map<String, Object>>) post.get("targets")).get(0);
                if ((Integer) target.get("attempts") > 1) {
                    resumed++;
                }
            }
        }
        return resumed;
    }

    @Override
    public void close() {
        running.set(false);
        clients.shutdownNow();
        receiver.close();
    }

    private String createRetryingAsAsked(Tenant tenant, String body) throws InterruptedException {
        String key = tenant.key();
        String idempotencyKey = UUID.randomUUID().toString();
        long deadline = System.currentTimeMillis() + 120_000;
        while (true) {
            String cause;
            long pause = 250;
            try {
                tenant.requestsSent().incrementAndGet();
                Response response = post(key, idempotencyKey, body);
                int status = response.statusCode();
                if (status == 202 || status == 200) {
                    return response.path("data.id");
                }
                assertThat(status)
                        .as("answer to a post: %s", response.asString())
                        .isIn(409, 429, 503);
                if (status == 409) {
                    assertThat(response.<String>path("error.code")).isEqualTo("idempotency_key_in_use");
                }
                if (status == 429) {
                    pause = Long.parseLong(response.header("Retry-After")) * 1000;
                }
                cause = String.valueOf(status);
            } catch (Exception e) {
                // The gateway itself is down: no connection, or one closed as it stopped. (rest-assured throws the
                // checked ConnectException undeclared, hence Exception.)
                cause = e.getClass().getSimpleName();
            }
            retries.computeIfAbsent(cause, c -> new AtomicInteger()).incrementAndGet();
            assertThat(System.currentTimeMillis())
                    .as("a post still not accepted after two minutes of retries")
                    .isLessThan(deadline);
            Thread.sleep(pause);
        }
    }

    /**
     * The meters besides publications (test mode shows no others: media bytes, comment requests and new connections
     * are unlimited there): no account slot taken or given back, and every API request the client sent counted at most
     * once, every accepted one at least once. The gateway counts a request when it admits it, so one cut off by a crash
     * after that counts although its client never saw an answer: between the two is all a client can tell.
     */
    private static void assertOtherMetersExact(Tenant tenant, JsonPath before, JsonPath after) {
        assertThat(after.getInt("accounts.used"))
                .as("account slots of %s", tenant.key())
                .isEqualTo(before.getInt("accounts.used"));
        // The read of usageAfterLoad is itself one API request.
        int counted = after.getInt("api_requests.used") - before.getInt("api_requests.used") - 1;
        assertThat(counted)
                .as(
                        "API requests counted for %d accepted posts and %d requests sent",
                        tenant.posts().size(), tenant.requestsSent().get())
                .isBetween(tenant.posts().size(), tenant.requestsSent().get());
        assertThat(after.getInt("api_requests.reserved")).isZero();
    }

    /** Every accepted post's event reached the receiver, signed with its workspace's endpoint secret. */
    private void assertEveryPostAnnounced(Set<String> accepted) throws InterruptedException {
        Set<String> announced = new HashSet<>();
        Map<String, String> postByEvent = new HashMap<>();
        int checked = 0;
        long deadline = System.currentTimeMillis() + 60_000;
        while (announced.size() < accepted.size() && System.currentTimeMillis() < deadline) {
            Thread.sleep(500);
            List<Receiver.Request> requests = receiver.requests();
            for (Receiver.Request request : requests.subList(checked, requests.size())) {
                JsonPath event = request.verify(secretOf(request));
                assertThat(event.getString("type")).isEqualTo("post.published");
                String post = event.getString("data.id");
                // At least once: a delivery cut off by a fault is sent again, under the same event id.
                String earlier = postByEvent.putIfAbsent(event.getString("id"), post);
                if (earlier != null) {
                    assertThat(earlier)
                            .as("the post event %s names", event.getString("id"))
                            .isEqualTo(post);
                }
                announced.add(post);
            }
            checked = requests.size();
        }
        assertThat(announced).containsExactlyInAnyOrderElementsOf(accepted);
    }

    /** The secret of the endpoint of the workspace whose post the event is about. */
    private String secretOf(Receiver.Request request) {
        String postId = JsonPath.from(new String(request.body(), StandardCharsets.UTF_8))
                .getString("data.id");
        for (Tenant tenant : tenants) {
            if (tenant.posts().contains(postId)) {
                return tenant.endpoint().secret();
            }
        }
        throw new AssertionError("a webhook about a post no client created: " + postId);
    }

    /**
     * The sandbox provider's record of every publish call it received: exactly one per target, answered with the post
     * the target shows ({@link SandboxPublishCalls}). Returns the calls counted.
     */
    private static int assertPublishedOnceEach(Map<String, String> providerPostIds) throws Exception {
        SandboxPublishCalls.Count count = SandboxPublishCalls.read(
                        RunningSuite.get().postgres(), providerPostIds.keySet())
                .assertPublishedOnceEach(providerPostIds);
        // The load's accounts are neither fail_ nor flaky_: the sandbox answers each of their calls with a post.
        assertThat(count.failedCalls()).as("sandbox publish calls that failed").isZero();
        return count.publications();
    }

    /** Every post of the workspace once all {@code expected} are final, or as they are after two minutes. */
    private static List<Map<String, Object>> awaitAllFinal(String key, int expected) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 120_000;
        List<Map<String, Object>> posts = List.of();
        while (System.currentTimeMillis() < deadline) {
            posts = allPosts(key);
            if (posts.size() == expected
                    && posts.stream().allMatch(post -> FINAL.contains((String) post.get("status")))) {
                return posts;
            }
            Thread.sleep(1000);
        }
        return posts;
    }

    private static List<Map<String, Object>> allPosts(String key) {
        List<Map<String, Object>> posts = new ArrayList<>();
        ApiLists.pages(() -> as(key), "/posts", 100).forEach(page -> posts.addAll(page.getList("data")));
        return posts;
    }
}
