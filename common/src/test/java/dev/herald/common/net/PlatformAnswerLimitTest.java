package dev.herald.common.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.RequestOptions;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class PlatformAnswerLimitTest {
    private static final int CAP = 64 * 1024;
    private static final int HUGE = 50 * 1024 * 1024;

    private static Vertx vertx;
    private static HttpServer server;
    private static final AtomicLong hugeBytesWritten = new AtomicLong();

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        server = vertx.createHttpServer()
                .requestHandler(request -> {
                    HttpServerResponse response = request.response();
                    switch (request.path()) {
                        case "/small" ->
                            response.putHeader("Content-Type", "application/json")
                                    .end("{\"id\":\"42\"}");
                        case "/declared" -> {
                            response.putHeader("Content-Length", String.valueOf(HUGE));
                            writeHuge(response);
                        }
                        case "/chunked" -> {
                            response.setChunked(true);
                            writeHuge(response);
                        }
                        case "/upload" -> {
                            long[] received = {0};
                            request.handler(chunk -> received[0] += chunk.length());
                            request.endHandler(end -> response.putHeader("Content-Type", "application/json")
                                    .end("{\"received\":" + received[0] + "}"));
                        }
                        default -> response.setStatusCode(404).end();
                    }
                })
                .listen(0)
                .toCompletionStage()
                .toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
    }

    /** 50 MB in 64 KiB pieces, with back-pressure, counting what actually left. */
    private static void writeHuge(HttpServerResponse response) {
        Buffer piece = Buffer.buffer(new byte[64 * 1024]);
        long[] sent = {0};
        Runnable[] more = new Runnable[1];
        more[0] = () -> {
            while (sent[0] < HUGE && !response.writeQueueFull() && !response.closed()) {
                response.write(piece);
                sent[0] += piece.length();
                hugeBytesWritten.addAndGet(piece.length());
            }
            if (sent[0] >= HUGE) {
                response.end();
            } else if (!response.closed()) {
                response.drainHandler(v -> more[0].run());
            }
        };
        more[0].run();
    }

    @AfterAll
    static void stop() {
        vertx.close();
    }

    private static Answer get(HttpClient client, String path) throws Exception {
        return client.request(HttpMethod.GET, server.actualPort(), "127.0.0.1", path)
                .compose(request ->
                        request.send().compose(response -> response.body().map(body -> new Answer(response, body))))
                .toCompletionStage()
                .toCompletableFuture()
                .get(20, TimeUnit.SECONDS);
    }

    private record Answer(HttpClientResponse response, Buffer body) {}

    private static HttpClient cappedClient() {
        HttpClient client = vertx.createHttpClient();
        PlatformAnswerLimit.install(client, CAP);
        return client;
    }

    @Test
    void anAnswerUnderTheCapArrivesWholeAndTheConnectionIsReused() throws Exception {
        HttpClient client = cappedClient();
        for (int i = 0; i < 3; i++) {
            Answer answer = get(client, "/small");
            assertThat(answer.response().statusCode()).isEqualTo(200);
            assertThat(answer.body().toString(StandardCharsets.UTF_8)).isEqualTo("{\"id\":\"42\"}");
            assertThat(answer.response().getHeader(PlatformAnswerLimit.TOO_LARGE_HEADER))
                    .isNull();
        }
        client.close();
    }

    @Test
    void aDeclaredHugeAnswerArrivesWithoutItsBodyAndMarked() throws Exception {
        hugeBytesWritten.set(0);
        Answer answer = get(cappedClient(), "/declared");
        assertThat(answer.response().statusCode()).isEqualTo(200);
        assertThat(answer.body().length()).isZero();
        assertThat(answer.response().getHeader(PlatformAnswerLimit.TOO_LARGE_HEADER))
                .isEqualTo(String.valueOf(CAP));
        // The connection was closed rather than the rest read: the server could not send it all.
        Thread.sleep(200);
        assertThat(hugeBytesWritten.get()).isLessThan(HUGE);
    }

    @Test
    void aChunkedHugeAnswerIsCutAtTheCap() throws Exception {
        hugeBytesWritten.set(0);
        HttpClient client = cappedClient();
        Answer answer = get(client, "/chunked");
        assertThat(answer.body().length()).isZero();
        assertThat(answer.response().getHeader(PlatformAnswerLimit.TOO_LARGE_HEADER))
                .isEqualTo(String.valueOf(CAP));
        Thread.sleep(200);
        assertThat(hugeBytesWritten.get()).isLessThan(HUGE);
        // The client goes on working on a new connection.
        assertThat(get(client, "/small").body().toString(StandardCharsets.UTF_8))
                .isEqualTo("{\"id\":\"42\"}");
    }

    @Test
    void aLargeUploadGoesOutWholeAndItsAnswerComesBack() throws Exception {
        // The cap acts on what comes in only: a 64 MiB body streamed out (a video to a platform) is untouched.
        long size = 64L << 20;
        Buffer piece = Buffer.buffer(new byte[64 * 1024]);
        String answer = cappedClient()
                .request(new RequestOptions()
                        .setMethod(HttpMethod.PUT)
                        .setHost("127.0.0.1")
                        .setPort(server.actualPort())
                        .setURI("/upload")
                        .setIdleTimeout(20_000))
                .compose(request -> {
                    request.putHeader("Content-Length", Long.toString(size));
                    Future<Buffer> body = request.response().compose(HttpClientResponse::body);
                    long[] sent = {0};
                    Runnable[] more = new Runnable[1];
                    more[0] = () -> {
                        while (sent[0] < size && !request.writeQueueFull()) {
                            request.write(piece);
                            sent[0] += piece.length();
                        }
                        if (sent[0] >= size) {
                            request.end();
                        } else {
                            request.drainHandler(drained -> more[0].run());
                        }
                    };
                    more[0].run();
                    return body;
                })
                .toCompletionStage()
                .toCompletableFuture()
                .get(60, TimeUnit.SECONDS)
                .toString(StandardCharsets.UTF_8);

        assertThat(answer).isEqualTo("{\"received\":" + size + "}");
    }

    @Test
    void withoutTheCapTheWholeHugeAnswerIsBuffered() throws Exception {
        // What the cap guards against: Vert.x's client reads 50 MB into memory.
        Answer answer = get(vertx.createHttpClient(), "/chunked");
        assertThat(answer.body().length()).isEqualTo(HUGE);
    }

    @Test
    void successfulAnswersMustBeJsonObjectsOrArrays() {
        PlatformAnswerFilter.check(200, new byte[0], null);
        PlatformAnswerFilter.check(200, " \n".getBytes(StandardCharsets.UTF_8), null);
        PlatformAnswerFilter.check(200, "{\"id\":\"1\"}".getBytes(StandardCharsets.UTF_8), "application/json");
        PlatformAnswerFilter.check(200, "[]".getBytes(StandardCharsets.UTF_8), "application/json");
        assertThatThrownBy(() -> PlatformAnswerFilter.check(
                        200, "{\"id\":".getBytes(StandardCharsets.UTF_8), "application/json"))
                .isInstanceOfSatisfying(
                        PlatformAnswerUnreadable.class,
                        unreadable -> assertThat(unreadable.details())
                                .containsEntry("reason", "answer_not_json")
                                .containsEntry("content_type", "application/json"));
        assertThatThrownBy(() -> PlatformAnswerFilter.check(
                        200, "<html>oops</html>".getBytes(StandardCharsets.UTF_8), "text/html\r\nX: y"))
                .isInstanceOfSatisfying(
                        PlatformAnswerUnreadable.class,
                        unreadable ->
                                assertThat(unreadable.details()).containsEntry("content_type", "text/html??X: y"));
        assertThatThrownBy(() -> PlatformAnswerFilter.check(
                        201, "\"just a string\"".getBytes(StandardCharsets.UTF_8), "application/json"))
                .isInstanceOfSatisfying(
                        PlatformAnswerUnreadable.class,
                        unreadable -> assertThat(unreadable.reason()).isEqualTo("answer_not_an_object"));
    }
}
