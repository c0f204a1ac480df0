package dev.herald.delivery.provider.media;

import dev.herald.delivery.support.GeneratedMedia;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.net.InetAddress;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The measured run of {@link MediaStreamingHeapTest}, in a JVM of its own with {@code -Xmx256m}: a generated source of
 * the given size streamed through {@link MediaSource} and {@link StreamingHttp} to a receiver that only hashes, while a
 * sampler records the heap used after GC every 100 ms. Prints {@code key=value} lines for the test to check.
 */
public final class MediaStreamingHeapCheck {
    private MediaStreamingHeapCheck() {}

    public static void main(String[] args) throws Exception {
        long size = Long.parseLong(args[0]);
        Vertx vertx = Vertx.vertx();
        AtomicReference<String> received = new AtomicReference<>();
        AtomicLong receivedBytes = new AtomicLong();
        HttpServer sink = vertx.createHttpServer()
                .requestHandler(request -> {
                    MessageDigest digest = GeneratedMedia.digest();
                    request.handler(chunk -> {
                        digest.update(chunk.getBytes());
                        receivedBytes.addAndGet(chunk.length());
                    });
                    request.endHandler(end -> {
                        received.set(HexFormat.of().formatHex(digest.digest()));
                        request.response()
                                .setStatusCode(201)
                                .putHeader("Content-Type", "application/json")
                                .end("{\"id\":\"v-big\"}");
                    });
                })
                .listen(0, "127.0.0.1")
                .toCompletionStage()
                .toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
        StreamingHttp http = new StreamingHttp(vertx, Duration.ofSeconds(30));
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        AtomicLong peak = new AtomicLong();
        AtomicLong samples = new AtomicLong();
        AtomicBoolean streaming = new AtomicBoolean(true);
        Thread sampler = new Thread(() -> {
            while (streaming.get()) {
                memory.gc();
                peak.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max);
                samples.incrementAndGet();
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        try (GeneratedMedia media = new GeneratedMedia()) {
            MediaSource sources =
                    // As MediaIngest: sources through their own client; the platforms' one caps answers at 1 MiB.
                    new MediaSource(
                            vertx,
                            StreamingHttp.forSources(vertx, Duration.ofSeconds(30)),
                            new TestMediaConfig(true, 4L << 30),
                            InetAddress::getAllByName);
            MediaSource.Located source =
                    sources.locate(media.file("big.mp4", size)).await().atMost(Duration.ofSeconds(10));
            sampler.start();
            long started = System.nanoTime();
            StreamingHttp.Answer answer = sources.open(source, 0)
                    .flatMap(body -> http.stream(
                            HttpMethod.PUT,
                            StreamingHttp.Endpoint.of("http://127.0.0.1:" + sink.actualPort() + "/upload"),
                            Map.of("Content-Type", source.contentType()),
                            source.size(),
                            body))
                    .await()
                    .atMost(Duration.ofMinutes(3));
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            streaming.set(false);
            sampler.join();
            System.out.println("max_heap=" + Runtime.getRuntime().maxMemory());
            System.out.println("status=" + answer.status());
            System.out.println("received_bytes=" + receivedBytes.get());
            System.out.println("received_sha256=" + received.get());
            System.out.println("expected_sha256=" + GeneratedMedia.sha256(0, size));
            System.out.println("peak_heap=" + peak.get());
            System.out.println("samples=" + samples.get());
            System.out.println("millis=" + millis);
        } finally {
            streaming.set(false);
            http.close();
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
        System.exit(0);
    }
}
