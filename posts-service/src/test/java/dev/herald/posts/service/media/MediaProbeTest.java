package dev.herald.posts.service.media;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.posts.service.media.SampleMedia.Movie;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.core.net.PfxOptions;
import io.vertx.core.net.SocketAddress;
import io.vertx.mutiny.core.Vertx;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The probe against real HTTP servers on 127.0.0.1: plain http with {@code allow-private-urls} (local runs), and https
 * under the production address rules, where a test resolver names a public address for {@code media.test} and the
 * connection is routed to the local server (nothing leaves the machine).
 *
 * <p>Longer than 300 lines: the probe's cases share the local servers, the test resolver and the media fixtures, which are most of the set-up.
 */
class MediaProbeTest {
    private static final Pattern RANGE = Pattern.compile("bytes=(\\d+)-(\\d+)");
    private static final long HUGE = 32L * 1024 * 1024;
    private static final byte[] MOOV_FIRST = Movie.mp4(1920, 1080, 30).bytes();
    private static final byte[] MOOV_LAST =
            Movie.mp4(1080, 1920, 120).moovLast(300_000).bytes();
    private static final byte[] WIDE_PNG = SampleMedia.image("png", 2500, 500);
    private static final byte[] PROFILED_JPEG = SampleMedia.jpegAfterMetadata(1080, 1350, 3);
    private static final byte[] DECK_PDF =
            SampleMedia.concat(SampleMedia.ascii("%PDF-1.7\n%\u00e2\u00e3\n1 0 obj\n"), new byte[90_000]);

    private static Vertx vertx;
    private static HttpServer plain;
    private static HttpServer tls;
    private static final List<String> requests = new CopyOnWriteArrayList<>();
    private static final AtomicLong hugeSent = new AtomicLong();
    private static final AtomicBoolean hugeEnded = new AtomicBoolean();

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        plain = vertx.getDelegate()
                .createHttpServer(new HttpServerOptions().setHost("127.0.0.1"))
                .requestHandler(MediaProbeTest::serve)
                .listen(0)
                .toCompletionStage()
                .toCompletableFuture()
                .get();
        tls = vertx.getDelegate()
                .createHttpServer(new HttpServerOptions()
                        .setHost("127.0.0.1")
                        .setSsl(true)
                        .setKeyCertOptions(new PfxOptions()
                                .setPath(resource("media-test.p12"))
                                .setPassword("changeit")))
                .requestHandler(MediaProbeTest::serve)
                .listen(0)
                .toCompletionStage()
                .toCompletableFuture()
                .get();
    }

    @AfterAll
    static void stop() {
        vertx.closeAndAwait();
    }

    @BeforeEach
    void forget() {
        requests.clear();
    }

    private static String resource(String name) throws Exception {
        return Path.of(MediaProbeTest.class.getResource("/media-probe/" + name).toURI())
                .toString();
    }

    private static String local(String path) {
        return "http://127.0.0.1:" + plain.actualPort() + path;
    }

    private static MediaProbe localProbe(Duration timeout) {
        return new MediaProbe(
                vertx,
                true,
                InetAddress::getAllByName,
                timeout,
                new HttpClientOptions(),
                target -> SocketAddress.inetSocketAddress(
                        target.port(), target.address().getHostAddress()));
    }

    /** Production rules (https, public addresses only); every connection goes to the local TLS server. */
    private static MediaProbe guardedProbe() throws Exception {
        return new MediaProbe(
                vertx,
                false,
                MediaProbeTest::resolve,
                Duration.ofSeconds(5),
                new HttpClientOptions()
                        .setTrustOptions(new PemTrustOptions().addCertPath(resource("media-test.crt.pem"))),
                target -> SocketAddress.inetSocketAddress(tls.actualPort(), "127.0.0.1"));
    }

    private static InetAddress[] resolve(String host) throws UnknownHostException {
        return switch (host) {
            case "media.test" -> new InetAddress[] {InetAddress.getByAddress(host, new byte[] {93, (byte) 184, 1, 34})};
            case "internal.test" -> new InetAddress[] {InetAddress.getByAddress(host, new byte[] {10, 0, 0, 7})};
            default -> throw new UnknownHostException(host);
        };
    }

    private static MediaProbe.Probed probe(MediaProbe probe, String url, String type) {
        return probe.probe(url, type).await().atMost(Duration.ofSeconds(15));
    }

    @Test
    void aUrlAnswering404IsUnavailable() {
        MediaProbe.Probed probed = probe(localProbe(Duration.ofSeconds(5)), local("/missing.jpg"), "image");
        assertThat(probed.problem("media.url")).hasValueSatisfying(problem -> {
            assertThat(problem.code()).isEqualTo("media_unavailable");
            assertThat(problem.message()).contains("HTTP 404").contains("/missing.jpg");
        });
    }

    @Test
    void anImageIsMeasuredFromItsFirstBytesWithItsSizeFromContentRange() {
        MediaProbe.Probed probed = probe(localProbe(Duration.ofSeconds(5)), local("/wide.png"), "image");
        assertThat(probed.facts())
                .isEqualTo(new MediaFacts(
                        "image/png", (long) WIDE_PNG.length, MediaFacts.Kind.IMAGE, "png", null, 2500, 500, null));
        assertThat(requests).containsExactly("/wide.png bytes=0-65535");
    }

    @Test
    void aHostIgnoringTheRangeIsReadForAtMost64KiBAndThenDropped() throws Exception {
        MediaProbe.Probed probed = probe(localProbe(Duration.ofSeconds(5)), local("/huge.mp4"), "video");
        assertThat(probed.bytesRead()).isEqualTo(MediaProbe.READ_BYTES);
        assertThat(probed.facts().sizeBytes()).isEqualTo(HUGE); // Content-Length of the full answer
        assertThat(probed.facts().dimensions()).isEqualTo("1920x1080");
        assertThat(probed.facts().duration()).isEqualTo(Duration.ofSeconds(30));
        Thread.sleep(200);
        assertThat(hugeEnded).as("the host never got to send the whole file").isFalse();
        assertThat(hugeSent.get()).isLessThan(HUGE);
    }

    @Test
    void anMp4WithItsMoovAtTheEndIsReadWithASecondRangedGet() {
        MediaProbe.Probed probed = probe(localProbe(Duration.ofSeconds(5)), local("/moov-last.mp4"), "video");
        assertThat(probed.facts())
                .isEqualTo(new MediaFacts(
                        "video/mp4",
                        (long) MOOV_LAST.length,
                        MediaFacts.Kind.VIDEO,
                        "mp4",
                        "avc1",
                        1080,
                        1920,
                        Duration.ofMinutes(2)));
        long moov = 24 + 8 + 300_000;
        assertThat(requests)
                .containsExactly(
                        "/moov-last.mp4 bytes=0-65535",
                        "/moov-last.mp4 bytes=" + moov + "-" + (moov + MediaProbe.READ_BYTES - 1));
    }

    @Test
    void aMoovTheHostFailsToServeLeavesTheVideoMeasuredWithoutIt() {
        MediaProbe.Probed probed = probe(localProbe(Duration.ofSeconds(5)), local("/moov-unreadable.mp4"), "video");
        assertThat(probed.code()).isNull();
        assertThat(probed.facts())
                .isEqualTo(new MediaFacts(
                        "video/mp4", (long) MOOV_LAST.length, MediaFacts.Kind.VIDEO, "mp4", null, null, null, null));
        assertThat(requests).hasSize(2);
    }

    @Test
    void aJpegWhoseFrameHeaderLiesPast64KiBIsReadWithASecondRangedGet() {
        MediaProbe.Probed probed = probe(localProbe(Duration.ofSeconds(5)), local("/profiled.jpg"), "image");
        assertThat(probed.facts().dimensions()).isEqualTo("1080x1350");
        assertThat(probed.bytesRead()).isEqualTo(MediaProbe.READ_BYTES + (PROFILED_JPEG.length - 90_014));
        assertThat(requests).hasSize(2).last().isEqualTo("/profiled.jpg bytes=90014-155549");
    }

    @Test
    void aRedirectToAPrivateOrMetadataAddressIsRefusedBeforeAnyConnection() throws Exception {
        MediaProbe guarded = guardedProbe();
        // The same probe and server measure a public URL: the refusals below are the guard's, not TLS's.
        assertThat(probe(guarded, "https://media.test/wide.png", "image")
                        .facts()
                        .dimensions())
                .isEqualTo("2500x500");
        requests.clear();
        for (String path : List.of("/to-metadata", "/to-internal", "/to-plain-http")) {
            MediaProbe.Probed probed = probe(guarded, "https://media.test" + path, "image");
            assertThat(probed.code()).as(path).isEqualTo("media_unreachable");
            assertThat(probed.message()).as(path).contains("nothing was fetched");
        }
        assertThat(probe(guarded, "https://media.test/to-metadata", "image").message())
                .contains("169.254.169.254");
        assertThat(probe(guarded, "https://media.test/to-internal", "image").message())
                .contains("10.0.0.7");
        // Only the redirecting requests reached a server; no redirect was followed.
        assertThat(requests).allSatisfy(request -> assertThat(request).startsWith("/to-"));
    }

    @Test
    void redirectsAreFollowedUpToThreeTimes() {
        MediaProbe probe = localProbe(Duration.ofSeconds(5));
        assertThat(probe(probe, local("/hop/1"), "image").facts().dimensions()).isEqualTo("2500x500");
        MediaProbe.Probed tooMany = probe(probe, local("/hop/0"), "image");
        assertThat(tooMany.code()).isEqualTo("media_unreachable");
        assertThat(tooMany.message()).contains("redirected more than 3 times");
    }

    @Test
    void aHostThatDoesNotAnswerInTimeIsUnreachable() {
        long started = System.nanoTime();
        MediaProbe.Probed probed = probe(localProbe(Duration.ofMillis(300)), local("/slow.mp4"), "video");
        assertThat(probed.code()).isEqualTo("media_unreachable");
        assertThat(probed.message()).contains("did not answer within 0.3 s");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(3));
    }

    @Test
    void aHostThatRefusesTheConnectionIsUnreachable() {
        MediaProbe.Probed probed = probe(localProbe(Duration.ofSeconds(5)), "http://127.0.0.1:1/clip.mp4", "video");
        assertThat(probed.code()).isEqualTo("media_unreachable");
        assertThat(probed.message()).contains("could not be reached");
    }

    @Test
    void aWebPageIsNeitherAnImageNorAVideo() {
        MediaProbe.Probed probed = probe(localProbe(Duration.ofSeconds(5)), local("/page"), "image");
        assertThat(probed.code()).isEqualTo("media_type_unsupported");
        assertThat(probed.message()).contains("text/html");
    }

    @Test
    void aPdfIsADocumentFromItsMagicWhateverTheHostCallsIt() {
        MediaProbe.Probed probed = probe(localProbe(Duration.ofSeconds(5)), local("/deck.pdf"), "document");
        assertThat(probed.code()).isNull();
        assertThat(probed.facts())
                .isEqualTo(new MediaFacts(
                        "application/octet-stream",
                        (long) DECK_PDF.length,
                        MediaFacts.Kind.DOCUMENT,
                        "pdf",
                        null,
                        null,
                        null,
                        null));
        assertThat(requests).containsExactly("/deck.pdf bytes=0-65535");
    }

    @Test
    void aPdfDeclaredAsAnImageIsAMismatch() {
        MediaProbe.Probed probed = probe(localProbe(Duration.ofSeconds(5)), local("/deck.pdf"), "image");
        assertThat(probed.code()).isEqualTo("media_type_mismatch");
        assertThat(probed.message()).contains("is a document (PDF)");
    }

    @Test
    void anImageDeclaredAsAVideoIsAMismatch() {
        MediaProbe.Probed probed = probe(localProbe(Duration.ofSeconds(5)), local("/wide.png"), "video");
        assertThat(probed.problem("media[1].url")).hasValueSatisfying(problem -> {
            assertThat(problem.field()).isEqualTo("media[1].url");
            assertThat(problem.code()).isEqualTo("media_type_mismatch");
            assertThat(problem.message()).contains("is an image (PNG)");
        });
    }

    private static void serve(HttpServerRequest request) {
        String path = request.path();
        String range = request.getHeader("Range");
        requests.add(path + " " + range);
        HttpServerResponse response = request.response();
        switch (path) {
            case "/wide.png" -> ranged(response, range, "image/png", WIDE_PNG);
            case "/moov-last.mp4" -> ranged(response, range, "video/mp4", MOOV_LAST);
            case "/profiled.jpg" -> ranged(response, range, "image/jpeg", PROFILED_JPEG);
            case "/deck.pdf" -> ranged(response, range, "application/octet-stream", DECK_PDF);
            case "/moov-unreadable.mp4" -> {
                if ("bytes=0-65535".equals(range)) {
                    ranged(response, range, "video/mp4", MOOV_LAST);
                } else {
                    response.setStatusCode(500).end();
                }
            }
            case "/huge.mp4" -> ignoringRange(response);
            case "/page" ->
                response.putHeader("Content-Type", "text/html; charset=utf-8")
                        .end("<!doctype html><title>Not media</title>");
            case "/to-metadata" -> redirect(response, "https://169.254.169.254/latest/meta-data/");
            case "/to-internal" -> redirect(response, "https://internal.test/clip.mp4");
            case "/to-plain-http" -> redirect(response, "http://media.test/wide.png");
            case "/slow.mp4" -> {} // never answers
            default -> {
                if (path.startsWith("/hop/")) {
                    int hop = Integer.parseInt(path.substring(5));
                    redirect(response, hop < 3 ? "/hop/" + (hop + 1) : "/wide.png");
                } else {
                    response.setStatusCode(404).end();
                }
            }
        }
    }

    private static void redirect(HttpServerResponse response, String location) {
        response.setStatusCode(302).putHeader("Location", location).end();
    }

    /** Answers a {@code Range: bytes=a-b} with 206 and {@code Content-Range}, as most object stores do. */
    private static void ranged(HttpServerResponse response, String range, String type, byte[] file) {
        Matcher matcher = range == null ? null : RANGE.matcher(range);
        response.putHeader("Content-Type", type);
        if (matcher == null || !matcher.matches()) {
            response.end(Buffer.buffer(file));
            return;
        }
        int from = Integer.parseInt(matcher.group(1));
        int to = (int) Math.min(Long.parseLong(matcher.group(2)), file.length - 1);
        response.setStatusCode(206)
                .putHeader("Content-Range", "bytes " + from + "-" + to + "/" + file.length)
                .end(Buffer.buffer(Arrays.copyOfRange(file, from, to + 1)));
    }

    /** A host that ignores Range and sends the whole 32 MiB, at the pace the connection takes it. */
    private static void ignoringRange(HttpServerResponse response) {
        hugeSent.set(0);
        hugeEnded.set(false);
        response.putHeader("Content-Type", "video/mp4").putHeader("Content-Length", Long.toString(HUGE));
        AtomicBoolean closed = new AtomicBoolean();
        response.closeHandler(ignored -> closed.set(true));
        response.exceptionHandler(ignored -> closed.set(true));
        Buffer first = Buffer.buffer(MOOV_FIRST).appendBytes(new byte[64 * 1024 - MOOV_FIRST.length]);
        Buffer zeros = Buffer.buffer(new byte[64 * 1024]);
        Runnable pump = new Runnable() {
            @Override
            public void run() {
                while (!closed.get() && !response.writeQueueFull() && hugeSent.get() < HUGE) {
                    response.write(hugeSent.get() == 0 ? first : zeros);
                    hugeSent.addAndGet(64 * 1024);
                }
                if (closed.get()) {
                    return;
                }
                if (hugeSent.get() < HUGE) {
                    response.drainHandler(ignored -> run());
                } else {
                    response.end();
                    hugeEnded.set(true);
                }
            }
        };
        pump.run();
    }
}
