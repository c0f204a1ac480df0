package dev.herald.delivery.provider.media;

import static org.assertj.core.api.Assertions.assertThatCode;

import dev.herald.delivery.support.GeneratedMedia;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class StreamingHttpTest {
    private static Vertx vertx;
    private static StreamingHttp http;
    private static GeneratedMedia media;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        http = StreamingHttp.forSources(vertx, Duration.ofSeconds(30));
        media = new GeneratedMedia();
    }

    @AfterAll
    static void stop() throws Exception {
        http.close();
        media.close();
        vertx.close().toCompletionStage().toCompletableFuture().get();
    }

    @Test
    void aSourceReadToItsEndCanStillBeDiscardedWhenTheUploadItFedFails() throws Exception {
        // An upload refused after its last chunk closes its source, which by then has been read whole.
        HttpClientResponse source = http.open(HttpMethod.GET, StreamingHttp.Endpoint.of(media.file("whole.mp4", 5000)), Map.of())
                .await().atMost(Duration.ofSeconds(10));
        CompletableFuture<Long> read = new CompletableFuture<>();
        long[] bytes = {0};
        source.handler(chunk -> bytes[0] += chunk.length());
        source.endHandler(end -> read.complete(bytes[0]));
        source.resume();
        read.get(10, TimeUnit.SECONDS);

        assertThatCode(() -> StreamingHttp.discard(source)).doesNotThrowAnyException();
    }
}
