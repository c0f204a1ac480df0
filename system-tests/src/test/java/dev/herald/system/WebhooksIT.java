package dev.herald.system;

import static dev.herald.system.PostsPipelineIT.accepted;
import static dev.herald.system.PostsPipelineIT.account;
import static dev.herald.system.PostsPipelineIT.awaitFinal;
import static dev.herald.system.PostsPipelineIT.linkedIn;
import static dev.herald.system.PostsPipelineIT.testKey;
import static dev.herald.system.RunningSuite.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.IntUnaryOperator;
import java.util.function.Predicate;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Webhooks as a customer sees them, through the gateway only: endpoints registered with the API, real posts
 * published, failed and canceled by the real pipeline, and a local receiver that checks every signature over the
 * raw body the way the README's recipes do. The suite runs webhooks-service with a compressed retry schedule
 * (1 s, 1 s, 1 s: four attempts) and a 2 s request timeout (see {@link RunningSuite}).
 */
class WebhooksIT {
    private final List<Receiver> receivers = new ArrayList<>();

    @AfterEach
    void closeReceivers() {
        receivers.forEach(Receiver::close);
    }

    private Receiver receiver(IntUnaryOperator statusOfRequest) throws IOException {
        Receiver receiver = new Receiver(statusOfRequest);
        receivers.add(receiver);
        return receiver;
    }

    record Endpoint(String id, String secret) {}

    static Endpoint register(String key, String url, String... events) {
        JsonPath created = as(key).contentType(ContentType.JSON)
                .body("{\"url\":\"" + url + "\",\"description\":\"system test\",\"events\":[\""
                        + String.join("\",\"", events) + "\"]}")
                .post("/webhooks")
                .then()
                .statusCode(201)
                .body("data.status", equalTo("enabled"))
                .body("data.mode", equalTo("test"))
                .extract()
                .jsonPath();
        return new Endpoint(created.getString("data.id"), created.getString("data.secret"));
    }

    /** A post canceled while it waits for its scheduled time. */
    static String canceled(String key, String account) {
        String id = accepted(
                key,
                "{\"text\":\"Never\",\"account_ids\":[\"" + account + "\"],\"scheduled_at\":\""
                        + Instant.now().plus(1, ChronoUnit.HOURS) + "\"}");
        as(key).delete("/posts/" + id).then().statusCode(200).body("data.status", equalTo("canceled"));
        return id;
    }

    static List<Map<String, Object>> deliveries(String key, String endpointId) {
        return as(key).queryParam("endpoint_id", endpointId)
                .get("/deliveries")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("data");
    }

    static List<Map<String, Object>> awaitDeliveries(
            String key, String endpointId, Predicate<List<Map<String, Object>>> done, long timeoutMillis)
            throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        List<Map<String, Object>> found = deliveries(key, endpointId);
        while (!done.test(found) && System.currentTimeMillis() < deadline) {
            Thread.sleep(300);
            found = deliveries(key, endpointId);
        }
        return found;
    }

    static Predicate<List<Map<String, Object>>> all(int count, String status) {
        return found ->
                found.size() == count && found.stream().allMatch(delivery -> status.equals(delivery.get("status")));
    }

    @Test
    void exactlyTheSubscribedEventsArriveSignedOverTheRawBodyWithIdsStableAcrossRetries() throws Exception {
        String key = testKey("Webhook events");
        Receiver outcomes = receiver(n -> 200);
        // The failures receiver refuses its first request, so the post.failed event is sent twice.
        Receiver failures = receiver(n -> n == 1 ? 500 : 200);
        Endpoint published = register(key, outcomes.url(), "post.published", "post.canceled");
        Endpoint failed = register(key, failures.url(), "post.failed");

        String brand = account(key, "linkedin", "brand");
        String publishedPost = accepted(key, linkedIn(brand));
        String failedPost = accepted(key, linkedIn(account(key, "facebook", "fail_brand")));
        String canceledPost = canceled(key, brand);
        assertThat(awaitFinal(key, publishedPost).getString("data.status")).isEqualTo("published");
        assertThat(awaitFinal(key, failedPost).getString("data.status")).isEqualTo("failed");

        List<Receiver.Request> toOutcomes = outcomes.awaitRequests(2, 30_000);
        List<Receiver.Request> toFailures = failures.awaitRequests(2, 30_000);
        Thread.sleep(2000);
        assertThat(outcomes.requests()).hasSize(2);
        assertThat(failures.requests()).hasSize(2);

        Map<String, String> posts = new java.util.HashMap<>();
        for (Receiver.Request request : toOutcomes) {
            JsonPath body = request.verify(published.secret());
            posts.put(body.getString("type"), body.getString("data.id"));
            assertThat(body.getString("id"))
                    .isEqualTo(request.header("webhook-id"))
                    .matches("^evt_[a-f0-9]{24}$");
            assertThat(body.getString("mode")).isEqualTo("test");
            assertThat(body.getString("data.targets[0].account_id")).isEqualTo(brand);
        }
        assertThat(posts)
                .containsOnly(Map.entry("post.published", publishedPost), Map.entry("post.canceled", canceledPost));

        Receiver.Request first = toFailures.get(0);
        Receiver.Request retry = toFailures.get(1);
        JsonPath failedEvent = first.verify(failed.secret());
        retry.verify(failed.secret());
        assertThat(failedEvent.getString("type")).isEqualTo("post.failed");
        assertThat(failedEvent.getString("data.id")).isEqualTo(failedPost);
        assertThat(failedEvent.getString("data.targets[0].error.code")).isEqualTo("provider_error");
        assertThat(retry.header("webhook-id")).isEqualTo(first.header("webhook-id"));
        assertThat(retry.body()).isEqualTo(first.body());
        // A signature made with another endpoint's secret does not verify.
        assertThat(first.signatureMatches(published.secret())).isFalse();

        assertThat(awaitDeliveries(key, failed.id(), all(1, "succeeded"), 20_000))
                .singleElement()
                .satisfies(delivery -> {
                    assertThat(delivery.get("attempts")).isEqualTo(2);
                    assertThat(delivery.get("event_id")).isEqualTo(first.header("webhook-id"));
                    assertThat(delivery.get("event_type")).isEqualTo("post.failed");
                });
    }

    @Test
    void aReceiverAnswering500TwiceIsRetriedAndTheLogShowsThreeAttemptsSucceeded() throws Exception {
        String key = testKey("Webhook retries");
        Receiver receiver = receiver(n -> n <= 2 ? 500 : 200);
        Endpoint endpoint = register(key, receiver.url(), "post.published");

        String post = accepted(key, linkedIn(account(key, "linkedin", "brand")));

        List<Map<String, Object>> found = awaitDeliveries(key, endpoint.id(), all(1, "succeeded"), 30_000);
        assertThat(found).singleElement().satisfies(delivery -> {
            assertThat(delivery.get("status")).isEqualTo("succeeded");
            assertThat(delivery.get("attempts")).isEqualTo(3);
            assertThat(delivery.get("last_response_status")).isEqualTo(200);
            assertThat(delivery.get("delivered_at")).isNotNull();
            assertThat(delivery.get("next_attempt_at")).isNull();
        });
        List<Receiver.Request> requests = receiver.requests();
        assertThat(requests).hasSize(3);
        assertThat(requests.stream()
                        .map(request -> request.header("webhook-id"))
                        .distinct())
                .hasSize(1);
        for (Receiver.Request request : requests) {
            assertThat(request.verify(endpoint.secret()).getString("data.id")).isEqualTo(post);
        }
    }

    @Test
    void aReceiverThatNeverAnswersEndsFailedAndCanBeRetriedByHandOnceItRecovers() throws Exception {
        String key = testKey("Webhook silence");
        Receiver receiver = receiver(n -> n <= 4 ? Receiver.NEVER : 200);
        Endpoint endpoint = register(key, receiver.url(), "post.published");

        accepted(key, linkedIn(account(key, "linkedin", "brand")));

        List<Map<String, Object>> found = awaitDeliveries(key, endpoint.id(), all(1, "failed"), 60_000);
        assertThat(found).singleElement().satisfies(delivery -> {
            assertThat(delivery.get("attempts")).isEqualTo(4);
            assertThat(delivery.get("last_response_status")).isNull();
            assertThat((String) delivery.get("last_error")).startsWith("The endpoint did not answer within");
        });
        assertThat(as(key).queryParam("status", "failed")
                        .get("/deliveries")
                        .then()
                        .extract()
                        .jsonPath()
                        .getList("data.id"))
                .containsExactly(found.get(0).get("id"));

        as(key).post("/deliveries/" + found.get(0).get("id") + "/retry")
                .then()
                .statusCode(202)
                .body("data.status", equalTo("pending"));
        assertThat(awaitDeliveries(key, endpoint.id(), all(1, "succeeded"), 20_000)
                        .get(0)
                        .get("attempts"))
                .isEqualTo(5);
        assertThat(receiver.requests().get(4).header("webhook-id"))
                .isEqualTo(receiver.requests().get(0).header("webhook-id"));
    }

    @Test
    void aDisabledEndpointGetsNothingNew() throws Exception {
        String key = testKey("Webhook disabled");
        Receiver receiver = receiver(n -> 200);
        Endpoint endpoint = register(key, receiver.url(), "post.published");
        String account = account(key, "linkedin", "brand");
        accepted(key, linkedIn(account));
        receiver.awaitRequests(1, 30_000);

        as(key).delete("/webhooks/" + endpoint.id())
                .then()
                .statusCode(200)
                .body("data.status", equalTo("disabled"))
                .body("data.disabled_at", org.hamcrest.Matchers.notNullValue());
        as(key).delete("/webhooks/" + endpoint.id()).then().statusCode(200).body("data.status", equalTo("disabled"));
        String later = accepted(key, linkedIn(account));
        assertThat(awaitFinal(key, later).getString("data.status")).isEqualTo("published");
        Thread.sleep(3000);

        assertThat(receiver.requests()).hasSize(1);
        assertThat(deliveries(key, endpoint.id())).hasSize(1);
        as(key).post("/webhooks/" + endpoint.id() + "/test")
                .then()
                .statusCode(409)
                .body("error.code", equalTo("conflict"));
    }

    @Test
    void aTestEventAndARotatedSecretReachTheReceiverThroughTheGateway() throws Exception {
        String key = testKey("Webhook test event");
        Receiver receiver = receiver(n -> 200);
        Endpoint endpoint = register(key, receiver.url(), "post.failed");

        String rotated = as(key).post("/webhooks/" + endpoint.id() + "/rotate-secret")
                .then()
                .statusCode(200)
                .extract()
                .path("data.secret");
        as(key).post("/webhooks/" + endpoint.id() + "/test")
                .then()
                .statusCode(202)
                .body("data.event_type", equalTo("webhook.test"));

        Receiver.Request request = receiver.awaitRequests(1, 30_000).get(0);
        // Signed with the new secret and, for a day, the previous one too.
        assertThat(request.verify(rotated).getString("type")).isEqualTo("webhook.test");
        request.verify(endpoint.secret());
        assertThat(request.header("webhook-signature").split(" ")).hasSize(2);
    }

    /**
     * A local receiver: records every request's raw body and headers, and answers the n-th request (1-based) with
     * the status the function gives ({@link #NEVER}: no answer at all).
     */
    static final class Receiver implements AutoCloseable {
        static final int NEVER = -1;
        private final HttpServer server;
        private final IntUnaryOperator statusOfRequest;
        private final List<Request> requests = new CopyOnWriteArrayList<>();

        record Request(Map<String, List<String>> headers, byte[] body, int status, Instant receivedAt) {
            String header(String name) {
                return headers.entrySet().stream()
                        .filter(entry -> entry.getKey().equalsIgnoreCase(name))
                        .map(entry -> entry.getValue().get(0))
                        .findFirst()
                        .orElse(null);
            }

            /**
             * Checks the signature as the README's recipe does (HMAC-SHA256 keyed with the secret's UTF-8 bytes over
             * {@code id.timestamp.raw body}, any {@code v1=} value matching, timestamp within 300 s of its arrival: a
             * receiver checks on arrival, while a test may look at a request minutes later), then parses.
             */
            JsonPath verify(String secret) {
                long timestamp = Long.parseLong(header("webhook-timestamp"));
                assertThat(Math.abs(receivedAt.getEpochSecond() - timestamp)).isLessThanOrEqualTo(300);
                assertThat(signatureMatches(secret))
                        .as("a v1= signature made with the secret")
                        .isTrue();
                return JsonPath.from(new String(body, StandardCharsets.UTF_8));
            }

            boolean signatureMatches(String secret) {
                try {
                    Mac mac = Mac.getInstance("HmacSHA256");
                    mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
                    mac.update((header("webhook-id") + "." + header("webhook-timestamp") + ".")
                            .getBytes(StandardCharsets.UTF_8));
                    byte[] expected = mac.doFinal(body);
                    for (String signature : header("webhook-signature").split(" ")) {
                        if (signature.startsWith("v1=")
                                && MessageDigest.isEqual(
                                        expected, HexFormat.of().parseHex(signature.substring(3)))) {
                            return true;
                        }
                    }
                    return false;
                } catch (java.security.GeneralSecurityException e) {
                    throw new IllegalStateException(e);
                }
            }
        }

        Receiver(IntUnaryOperator statusOfRequest) throws IOException {
            this.statusOfRequest = statusOfRequest;
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/", this::handle);
            server.setExecutor(Executors.newCachedThreadPool(runnable -> {
                Thread thread = new Thread(runnable, "webhook-receiver");
                thread.setDaemon(true);
                return thread;
            }));
            server.start();
        }

        String url() {
            return "http://127.0.0.1:" + server.getAddress().getPort() + "/webhooks/herald";
        }

        List<Request> requests() {
            return new ArrayList<>(requests);
        }

        List<Request> awaitRequests(int count, long timeoutMillis) throws InterruptedException {
            long deadline = System.currentTimeMillis() + timeoutMillis;
            while (requests.size() < count && System.currentTimeMillis() < deadline) {
                Thread.sleep(50);
            }
            return requests();
        }

        private void handle(HttpExchange exchange) throws IOException {
            byte[] body;
            try (InputStream in = exchange.getRequestBody()) {
                body = in.readAllBytes();
            }
            int status;
            synchronized (this) {
                status = statusOfRequest.applyAsInt(requests.size() + 1);
                requests.add(new Request(Map.copyOf(exchange.getRequestHeaders()), body, status, Instant.now()));
            }
            if (status == NEVER) {
                try {
                    TimeUnit.SECONDS.sleep(60);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return;
            }
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }
}
