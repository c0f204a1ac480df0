package dev.herald.sdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.herald.sdk.generated.model.CreatePostRequest;
import dev.herald.sdk.generated.model.Profile;
import dev.herald.sdk.generated.model.ProfileList;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The hand-written layer against a local stand-in for the API that answers what each test queues. */
class HeraldClientTest {
    record Answer(int status, Map<String, String> headers, String body) {}

    record Seen(String method, String uri, Map<String, List<String>> headers) {
        String header(String name) {
            return headers.entrySet().stream()
                    .filter(entry -> entry.getKey().equalsIgnoreCase(name))
                    .map(entry -> entry.getValue().get(0))
                    .findFirst()
                    .orElse(null);
        }
    }

    private final Queue<Answer> answers = new ConcurrentLinkedQueue<>();
    private final List<Seen> seen = new CopyOnWriteArrayList<>();
    private final HttpServer server = start();

    private HttpServer start() {
        try {
            HttpServer started = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            started.createContext("/", exchange -> {
                seen.add(new Seen(
                        exchange.getRequestMethod(),
                        exchange.getRequestURI().toString(),
                        Map.copyOf(exchange.getRequestHeaders())));
                exchange.getRequestBody().readAllBytes();
                Answer answer = answers.remove();
                answer.headers().forEach(exchange.getResponseHeaders()::add);
                exchange.getResponseHeaders().add("Content-Type", "application/json");
                byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(answer.status(), body.length == 0 ? -1 : body.length);
                exchange.getResponseBody().write(body);
                exchange.close();
            });
            started.start();
            return started;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private Herald herald() {
        return Herald.builder()
                .baseUrl("http://127.0.0.1:" + server.getAddress().getPort())
                .apiKey("sk_test_unit")
                .build();
    }

    private void answer(int status, Map<String, String> headers, String body) {
        answers.add(new Answer(status, headers, body));
    }

    private static final String POST =
            "{\"data\":{\"id\":\"pst_1\",\"status\":\"queued\",\"text\":\"Hi\",\"account_ids\":[\"acc_1\"]}}";

    @Test
    void a429IsRetriedAfterItsRetryAfterWithTheSameIdempotencyKey() throws Exception {
        answer(429, Map.of("Retry-After", "1"), error("rate_limit_exceeded", "Slow down."));
        answer(202, Map.of(), POST);

        long started = System.nanoTime();
        String id = herald().createPost(new CreatePostRequest().text("Hi").addAccountIdsItem("acc_1"))
                .getData()
                .getId();

        assertThat(id).isEqualTo("pst_1");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(950));
        assertThat(seen).hasSize(2);
        assertThat(seen.get(0).header("Idempotency-Key"))
                .isNotBlank()
                .isEqualTo(seen.get(1).header("Idempotency-Key"));
        assertThat(seen.get(0).header("Authorization")).isEqualTo("Bearer sk_test_unit");
        assertThat(seen.get(0).uri()).isEqualTo("/api/v1/posts");
    }

    @Test
    void eachCreatedPostGetsItsOwnIdempotencyKey() throws Exception {
        answer(202, Map.of(), POST);
        answer(202, Map.of(), POST);
        Herald herald = herald();
        herald.createPost(new CreatePostRequest().text("Hi").addAccountIdsItem("acc_1"));
        herald.createPost(new CreatePostRequest().text("Hi").addAccountIdsItem("acc_1"));
        assertThat(seen.get(0).header("Idempotency-Key"))
                .isNotEqualTo(seen.get(1).header("Idempotency-Key"));
    }

    @Test
    void aWaitLongerThanThePolicyAllowsIsTheCallersAsARateLimitedError() {
        answer(429, Map.of("Retry-After", "3600"), error("usage_limit_exceeded", "The month's allowance is spent."));

        assertThatThrownBy(() -> herald().profiles().listProfiles(null, null, null, null))
                .isInstanceOfSatisfying(HeraldApiException.RateLimited.class, e -> {
                    assertThat(e.code()).isEqualTo("usage_limit_exceeded");
                    assertThat(e.status()).isEqualTo(429);
                    assertThat(e.retryAfter()).contains(Duration.ofHours(1));
                });
        assertThat(seen).hasSize(1);
    }

    @Test
    void errorsAreTypedByTheirCode() {
        answer(404, Map.of(), error("not_found", "No such post."));
        answer(
                422,
                Map.of(),
                "{\"error\":{\"code\":\"validation_failed\",\"message\":\"Invalid.\",\"details\":"
                        + "{\"errors\":[{\"field\":\"text\",\"code\":\"required\"}]}},\"request_id\":\"req_2\"}");
        answer(409, Map.of(), error("post_not_cancelable", "Already published."));
        answer(401, Map.of(), error("authentication_failed", "Unknown key."));
        answer(500, Map.of(), "<html>proxy</html>");
        Herald herald = herald();

        assertThatThrownBy(() -> herald.posts().getPost("pst_missing"))
                .isInstanceOfSatisfying(HeraldApiException.NotFound.class, e -> {
                    assertThat(e.requestId()).isEqualTo("req_1");
                    assertThat(e.getMessage()).isEqualTo("404 not_found: No such post. (request req_1)");
                });
        assertThatThrownBy(() -> herald.posts().validatePost(new CreatePostRequest()))
                .isInstanceOfSatisfying(
                        HeraldApiException.InvalidRequest.class,
                        e -> assertThat(e.details().at("/errors/0/field").asText())
                                .isEqualTo("text"));
        assertThatThrownBy(() -> herald.posts().cancelPost("pst_1")).isInstanceOf(HeraldApiException.Conflict.class);
        assertThatThrownBy(() -> herald.usage().getUsage()).isInstanceOf(HeraldApiException.Authentication.class);
        assertThatThrownBy(() -> herald.usage().getUsage())
                .isExactlyInstanceOf(HeraldApiException.class)
                .satisfies(e -> assertThat(((HeraldApiException) e).code()).isEqualTo("http_500"));
    }

    @Test
    void pagesFollowTheCursorUntilHasMoreIsFalseAndFetchLazily() {
        answer(
                200,
                Map.of(),
                "{\"data\":[{\"id\":\"prf_3\"},{\"id\":\"prf_2\"}],"
                        + "\"meta\":{\"next_cursor\":\"c1\",\"has_more\":true}}");
        answer(200, Map.of(), "{\"data\":[{\"id\":\"prf_1\"}],\"meta\":{\"next_cursor\":null,\"has_more\":false}}");
        Herald herald = herald();

        Iterable<Profile> profiles = Pages.iterate(
                cursor -> herald.profiles().listProfiles(null, null, 2, cursor),
                ProfileList::getData,
                ProfileList::getMeta);
        assertThat(seen).isEmpty();
        List<String> ids = new ArrayList<>();
        profiles.forEach(profile -> ids.add(profile.getId()));

        assertThat(ids).containsExactly("prf_3", "prf_2", "prf_1");
        assertThat(seen)
                .extracting(Seen::uri)
                .containsExactly("/api/v1/profiles?limit=2", "/api/v1/profiles?limit=2&cursor=c1");
    }

    private static String error(String code, String message) {
        return "{\"error\":{\"code\":\"" + code + "\",\"message\":\"" + message
                + "\",\"details\":{}},\"request_id\":\"req_1\"}";
    }
}
