package dev.herald.delivery.provider.media;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.herald.delivery.support.GeneratedMedia;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The SSRF guard and the size rules at transfer time (DNS can change since acceptance), with a resolver the test
 * controls.
 */
class MediaSourceTest {
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

    private static MediaSource guarded(Map<String, String> dns) {
        return new MediaSource(vertx, http, new TestMediaConfig(false, 1L << 32), host -> {
            String address = dns.get(host);
            if (address == null) {
                throw new UnknownHostException(host);
            }
            return new InetAddress[] {InetAddress.getByName(address)};
        });
    }

    private static MediaRefused refusal(MediaSource source, String url) {
        return catchThrowableOfType(
                MediaRefused.class, () -> source.locate(url).await().atMost(Duration.ofSeconds(30)));
    }

    @Test
    void aPlainHttpSourceIsRefused() {
        MediaRefused refused =
                refusal(guarded(Map.of("cdn.example.com", "93.184.215.14")), "http://cdn.example.com/clip.mp4");

        assertThat(refused.error().code()).isEqualTo("media_unavailable");
        assertThat(refused.error().retryable()).isFalse();
        assertThat(refused.error().details()).containsEntry("reason", "invalid_url");
    }

    @Test
    void aNameThatNowResolvesToAPrivateOrMetadataAddressIsRefusedBeforeAnyConnection() {
        MediaSource source = guarded(Map.of("cdn.example.com", "10.0.0.7", "meta.example.com", "169.254.169.254"));

        for (String url : new String[] {
            "https://cdn.example.com/clip.mp4",
            "https://meta.example.com/latest/meta-data",
            "https://127.0.0.1:" + 1 + "/clip.mp4",
            "https://[::1]/clip.mp4"
        }) {
            MediaRefused refused = refusal(source, url);
            assertThat(refused).as(url).isNotNull();
            assertThat(refused.error().details()).as(url).containsEntry("reason", "private_address");
            assertThat(refused.error().retryable()).isFalse();
        }
    }

    @Test
    void anAnswerDroppedUnreadNeverStallsTheNextRequestToTheSameHost() {
        MediaSource local =
                new MediaSource(vertx, http, new TestMediaConfig(true, 1L << 32), InetAddress::getAllByName);
        String missing = media.url("gone.mp4");
        String present = media.file("present.mp4", 1000);

        // A 404 to HEAD makes the source fall back to a GET whose answer is dropped unread. The next request to the
        // host must not be handed a connection that answer left behind.
        for (int i = 0; i < 20; i++) {
            MediaRefused refused = catchThrowableOfType(
                    MediaRefused.class, () -> local.locate(missing).await().atMost(Duration.ofSeconds(5)));
            assertThat(refused).as("round %d", i).isNotNull();
            assertThat(refused.error().details()).containsEntry("source_status", 404);
            assertThat(local.locate(present)
                            .await()
                            .atMost(Duration.ofSeconds(5))
                            .size())
                    .as("round %d", i)
                    .isEqualTo(1000);
        }
    }

    @Test
    void withPrivateUrlsAllowedForLocalRunsTheSizeRulesStillApply() {
        MediaSource local = new MediaSource(vertx, http, new TestMediaConfig(true, 1000), InetAddress::getAllByName);

        MediaRefused tooLarge = refusal(local, media.file("large.mp4", 1001));
        assertThat(tooLarge.error().code()).isEqualTo("media_too_large");
        assertThat(tooLarge.error().details())
                .containsEntry("size_bytes", 1001L)
                .containsEntry("max_bytes", 1000L);

        MediaRefused missing = refusal(local, media.url("nothing-here.mp4"));
        assertThat(missing.error().details())
                .containsEntry("reason", "source_status")
                .containsEntry("source_status", 404);
        assertThat(missing.error().retryable()).isFalse();

        MediaSource.Located located =
                local.locate(media.file("small.mp4", 1000)).await().atMost(Duration.ofSeconds(30));
        assertThat(located.size()).isEqualTo(1000);
        assertThat(located.contentType()).isEqualTo("video/mp4");
    }

    @Test
    void aSourceReadToItsEndCanStillBeDiscardedWhenTheUploadItFedFails() throws Exception {
        // An upload refused after its last chunk closes its source, which by then has been read whole.
        HttpClientResponse source = http.open(
                        HttpMethod.GET, StreamingHttp.Endpoint.of(media.file("whole.mp4", 5000)), Map.of())
                .await()
                .atMost(Duration.ofSeconds(10));
        CompletableFuture<Long> read = new CompletableFuture<>();
        long[] bytes = {0};
        source.handler(chunk -> bytes[0] += chunk.length());
        source.endHandler(end -> read.complete(bytes[0]));
        source.resume();
        read.get(10, TimeUnit.SECONDS);

        assertThatCode(() -> StreamingHttp.discard(source)).doesNotThrowAnyException();
    }
}
