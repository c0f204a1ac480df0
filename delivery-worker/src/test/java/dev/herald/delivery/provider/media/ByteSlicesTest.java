package dev.herald.delivery.provider.media;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.herald.delivery.support.GeneratedMedia;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * One fetch of a generated source carved into parts and streamed to a receiver that hashes each part as it arrives
 * (decision 149): every part gets exactly its bytes, in order, and a source that ends short fails the part it left short.
 */
class ByteSlicesTest {
    private static Vertx vertx;
    private static StreamingHttp http;
    private static GeneratedMedia media;
    private static HttpServer receiver;
    private static final List<String> RECEIVED = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        http = new StreamingHttp(vertx, Duration.ofSeconds(30));
        media = new GeneratedMedia();
        receiver = vertx.createHttpServer().requestHandler(request -> {
            MessageDigest digest = GeneratedMedia.digest();
            long[] length = {0};
            request.handler(buffer -> {
                digest.update(buffer.getBytes());
                length[0] += buffer.length();
            });
            request.endHandler(ended -> {
                RECEIVED.add(request.path() + " " + length[0] + " " + HexFormat.of().formatHex(digest.digest()));
                request.response().setStatusCode(200).putHeader("ETag", "\"" + request.path() + "\"").end();
            });
        }).listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @AfterAll
    static void stop() throws Exception {
        http.close();
        media.close();
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    private static StreamingHttp.Endpoint part(String name) {
        return StreamingHttp.Endpoint.of("http://127.0.0.1:" + receiver.actualPort() + "/" + name);
    }

    private static HttpClientResponse source(String name, long size) {
        return http.open(HttpMethod.GET, StreamingHttp.Endpoint.of(media.file(name, size)), Map.of())
                .await().atMost(Duration.ofSeconds(10));
    }

    @Test
    void eachPartGetsExactlyItsBytesFromOneFetchOfTheSource() {
        long part = 1_048_576;
        long size = 3 * part + 77;
        HttpClientResponse source = source("carved.mp4", size);
        ByteSlices slices = new ByteSlices(source);
        long[][] ranges = {{0, part}, {part, 2 * part}, {2 * part, 3 * part}, {3 * part, size}};

        for (int i = 0; i < ranges.length; i++) {
            long length = ranges[i][1] - ranges[i][0];
            StreamingHttp.Answer answer = http.stream(HttpMethod.PUT, part("carved-" + i), Map.of(), length, slices.next(length),
                    () -> StreamingHttp.discard(source)).await().atMost(Duration.ofSeconds(30));
            assertThat(answer.status()).isEqualTo(200);
        }
        slices.finish();

        for (int i = 0; i < ranges.length; i++) {
            assertThat(RECEIVED).contains("/carved-" + i + " " + (ranges[i][1] - ranges[i][0]) + " "
                    + GeneratedMedia.sha256(ranges[i][0], ranges[i][1]));
        }
        assertThat(media.requests()).filteredOn(request -> request.path().endsWith("/carved.mp4")).hasSize(1);
    }

    @Test
    void aSourceThatEndsShortFailsThePartItLeftShort() {
        HttpClientResponse source = source("short.mp4", 1000);
        ByteSlices slices = new ByteSlices(source);

        StreamingHttp.Answer first = http.stream(HttpMethod.PUT, part("short-0"), Map.of(), 600, slices.next(600),
                () -> StreamingHttp.discard(source)).await().atMost(Duration.ofSeconds(30));
        Throwable second = catchThrowable(() -> http.stream(HttpMethod.PUT, part("short-1"), Map.of(), 600, slices.next(600),
                () -> StreamingHttp.discard(source)).await().atMost(Duration.ofSeconds(30)));

        assertThat(first.status()).isEqualTo(200);
        assertThat(RECEIVED).contains("/short-0 600 " + GeneratedMedia.sha256(0, 600));
        assertThat(second).isNotNull();
        assertThat(RECEIVED).noneMatch(received -> received.startsWith("/short-1 "));
    }
}
