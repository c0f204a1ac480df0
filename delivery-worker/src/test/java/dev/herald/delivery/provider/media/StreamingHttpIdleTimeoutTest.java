package dev.herald.delivery.provider.media;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The idle timeout of a streamed upload counts pauses, not the transfer's length: a body that flows steadily for three
 * times the timeout arrives whole, and one whose source stops for longer than the timeout fails. (Vert.x alone times a
 * request out when no answer bytes arrive, which an upload's body never brings: a 300 MiB upload on a loaded machine
 * failed after 30 s of steady sending.)
 */
class StreamingHttpIdleTimeoutTest {
    private static final Duration IDLE = Duration.ofSeconds(1);
    private static final int PIECE = 1024;

    private static Vertx vertx;
    private static HttpServer server;
    private static final AtomicLong received = new AtomicLong();

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        server = vertx.createHttpServer()
                .requestHandler(request -> {
                    if (request.path().startsWith("/source/")) {
                        // /source/{pieces}/{pause after piece}: a piece every 100 ms, and a 2.5 s silence after one.
                        String[] parts = request.path().split("/");
                        int pieces = Integer.parseInt(parts[2]);
                        int pauseAfter = Integer.parseInt(parts[3]);
                        HttpServerResponse response = request.response();
                        response.putHeader("Content-Length", Long.toString((long) pieces * PIECE));
                        trickle(response, pieces, pauseAfter, 0);
                    } else {
                        request.body().onSuccess(body -> {
                            received.set(body.length());
                            request.response().setStatusCode(201).end("{}");
                        });
                    }
                })
                .listen(0, "127.0.0.1")
                .toCompletionStage()
                .toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
    }

    private static void trickle(HttpServerResponse response, int pieces, int pauseAfter, int sent) {
        if (sent == pieces) {
            response.end();
            return;
        }
        response.write(Buffer.buffer(new byte[PIECE]));
        long next = sent + 1 == pauseAfter ? 2_500 : 100;
        vertx.setTimer(next, tick -> trickle(response, pieces, pauseAfter, sent + 1));
    }

    @AfterAll
    static void stop() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    private StreamingHttp.Answer relay(int pieces, int pauseAfter) {
        // As MediaIngest does it: the source through the sources' client, the upload through the platforms' one.
        StreamingHttp sources = StreamingHttp.forSources(vertx, IDLE);
        StreamingHttp http = new StreamingHttp(vertx, IDLE);
        try {
            String base = "http://127.0.0.1:" + server.actualPort();
            return sources.open(
                            HttpMethod.GET,
                            StreamingHttp.Endpoint.of(base + "/source/" + pieces + "/" + pauseAfter),
                            Map.of())
                    .flatMap(source -> http.stream(
                            HttpMethod.PUT,
                            StreamingHttp.Endpoint.of(base + "/upload"),
                            Map.of(),
                            (long) pieces * PIECE,
                            source))
                    .await()
                    .atMost(Duration.ofSeconds(20));
        } finally {
            sources.close();
            http.close();
        }
    }

    @Test
    void aBodyThatFlowsForThreeTimesTheIdleTimeoutArrivesWhole() {
        received.set(0);

        StreamingHttp.Answer answer = relay(30, -1);

        assertThat(answer.status()).isEqualTo(201);
        assertThat(received.get()).isEqualTo(30L * PIECE);
    }

    @Test
    void aSourceSilentForLongerThanTheIdleTimeoutFailsTheTransfer() {
        assertThatThrownBy(() -> relay(10, 5)).hasRootCauseInstanceOf(java.util.concurrent.TimeoutException.class);
    }
}
