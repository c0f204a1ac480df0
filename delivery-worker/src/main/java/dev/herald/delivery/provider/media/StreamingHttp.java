package dev.herald.delivery.provider.media;

import dev.herald.common.net.PlatformAnswerLimit;
import dev.herald.common.net.PlatformAnswerUnreadable;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.SocketAddress;
import io.vertx.core.streams.ReadStream;
import io.vertx.core.tracing.TracingPolicy;
import java.net.InetAddress;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * HTTP on Vert.x's client for moving media: fetching a source (to the address the SSRF guard checked) and sending a
 * stream of unknown origin as a request body with back-pressure, so a file of any size passes through a few buffers
 * and never sits in memory. Answers' bodies are small (a platform's JSON) and read whole, up to 1 MiB.
 * <p>
 * Every request has its answer's handling in place before it leaves ({@code request.response()} first, then
 * {@code end}), never after {@code send()} returns: callers run on worker and Kafka threads too, and a caller that
 * loses the CPU between {@code send()} and attaching the read finds an answer Vert.x has already ended, whose
 * {@code body()} then never completes (Vert.x 4.5; it hung {@code MediaSourceTest} about once in ten CI runs).
 */
public final class StreamingHttp {
    /** A platform's answer: its status, headers and body (JSON, an error page). */
    public record Answer(int status, MultiMap headers, String body) {
        public String header(String name) {
            return headers.get(name);
        }
    }

    private static final int MAX_ANSWER_BYTES = 1 << 20;

    private final HttpClient client;
    private final long idleMillis;

    /** For platforms' APIs and uploads: connections are kept and reused. */
    public StreamingHttp(Vertx vertx, Duration idleTimeout) {
        this(vertx, idleTimeout, true);
        // Platforms' answers are capped as they arrive, declared or chunked (API10); sources' bodies are streamed.
        PlatformAnswerLimit.install(
                client,
                ConfigProvider.getConfig()
                        .getOptionalValue(PlatformAnswerLimit.MAX_BYTES_KEY, Long.class)
                        .orElse(PlatformAnswerLimit.DEFAULT_MAX_BYTES));
    }

    /**
     * For customers' media hosts: a connection per request. Their answers are often dropped unread (a size probe, a
     * source that changed), and a pooled connection whose answer arrived whole while paused and was then dropped
     * stalls the next request to that host until the idle timeout (Vert.x issue 5663). A handshake per source is
     * nothing next to the file it fetches.
     */
    public static StreamingHttp forSources(Vertx vertx, Duration idleTimeout) {
        return new StreamingHttp(vertx, idleTimeout, false);
    }

    private StreamingHttp(Vertx vertx, Duration idleTimeout, boolean keepAlive) {
        this.idleMillis = idleTimeout.toMillis();
        this.client = vertx.createHttpClient(new HttpClientOptions()
                .setProtocolVersion(HttpVersion.HTTP_1_1)
                .setKeepAlive(keepAlive)
                .setTryUseCompression(false)
                .setVerifyHost(true)
                .setForceSni(true)
                .setMaxPoolSize(64)
                .setConnectTimeout((int) Math.min(Integer.MAX_VALUE, idleMillis))
                // Sources are customers' hosts: no traceparent (our trace ids) goes to them.
                .setTracingPolicy(TracingPolicy.IGNORE));
    }

    public void close() {
        client.close();
    }

    /** Where a request goes: a URL's parts, and the address to connect to (null: the host's own resolution). */
    public record Endpoint(String host, int port, boolean ssl, String requestUri, InetAddress address) {
        /** A platform URL from configuration or a platform's answer (not a customer's: no address check). */
        public static Endpoint of(String url) {
            URI uri = URI.create(url);
            boolean ssl = "https".equalsIgnoreCase(uri.getScheme());
            String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
            return new Endpoint(
                    uri.getHost(),
                    uri.getPort() != -1 ? uri.getPort() : ssl ? 443 : 80,
                    ssl,
                    uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery(),
                    null);
        }
    }

    private RequestOptions options(HttpMethod method, Endpoint endpoint, Map<String, String> headers) {
        RequestOptions options = new RequestOptions()
                .setMethod(method)
                .setHost(endpoint.host())
                .setPort(endpoint.port())
                .setSsl(endpoint.ssl())
                .setURI(endpoint.requestUri())
                .setFollowRedirects(false)
                .setIdleTimeout(idleMillis)
                .setConnectTimeout(idleMillis);
        if (endpoint.address() != null) {
            // The checked address, not a new lookup: a name re-pointed since the check (DNS rebinding) reaches nothing
            // new.
            options.setServer(SocketAddress.inetSocketAddress(
                    endpoint.port(), endpoint.address().getHostAddress()));
        }
        headers.forEach(options::putHeader);
        return options;
    }

    /** A request with a small body (or none), its answer read whole. */
    public Uni<Answer> send(HttpMethod method, Endpoint endpoint, Map<String, String> headers, Buffer body) {
        Future<Answer> answer = client.request(options(method, endpoint, headers))
                .compose(request -> {
                    Future<Answer> read = request.response().compose(StreamingHttp::read);
                    if (body == null) {
                        request.end();
                    } else {
                        request.end(body);
                    }
                    return read;
                });
        return Uni.createFrom().completionStage(answer::toCompletionStage);
    }

    /**
     * Opens a response whose body the caller streams: paused at once, so no byte is lost before the caller pipes it.
     * The caller must consume it or {@link #discard} it.
     */
    public Uni<HttpClientResponse> open(HttpMethod method, Endpoint endpoint, Map<String, String> headers) {
        Future<HttpClientResponse> opened = client.request(options(method, endpoint, headers))
                .compose(request -> {
                    Future<HttpClientResponse> paused = request.response().map(response -> {
                        response.pause();
                        return response;
                    });
                    request.end();
                    return paused;
                });
        return Uni.createFrom().completionStage(opened::toCompletionStage);
    }

    /** Drops an opened response without reading it: its connection is closed rather than drained. */
    public static void discard(HttpClientResponse response) {
        try {
            // The reset is ours: without a handler Vert.x would log it as an unhandled error.
            response.exceptionHandler(expected -> {});
        } catch (IllegalStateException readToItsEnd) {
            // Vert.x refuses handlers on an answer already read whole (a source an upload used up): nothing to drop.
            return;
        }
        response.request().reset();
    }

    /**
     * Sends {@code body} (exactly {@code length} bytes) as the request's body at the pace the receiver takes it. A body
     * that breaks off resets the request (never a short body the receiver could take for complete); a request that
     * breaks off closes the body's source. Fails when either side breaks.
     */
    public Uni<Answer> stream(
            HttpMethod method, Endpoint endpoint, Map<String, String> headers, long length, HttpClientResponse body) {
        return stream(method, endpoint, headers, length, body, () -> discard(body));
    }

    /**
     * The same with a body from any stream; {@code closeBody} closes its source when the transfer breaks off. A
     * cancelled transfer (the attempt's timeout) resets the request, so no upload goes on unobserved.
     */
    public Uni<Answer> stream(
            HttpMethod method,
            Endpoint endpoint,
            Map<String, String> headers,
            long length,
            ReadStream<Buffer> body,
            Runnable closeBody) {
        return stream(method, endpoint, headers, Buffer.buffer(), length, body, Buffer.buffer(), closeBody);
    }

    /**
     * A body framed by small parts of its own: {@code before}, then exactly {@code length} bytes of {@code body}, then
     * {@code after} (a multipart form around a file).
     */
    public Uni<Answer> stream(
            HttpMethod method,
            Endpoint endpoint,
            Map<String, String> headers,
            Buffer before,
            long length,
            ReadStream<Buffer> body,
            Buffer after,
            Runnable closeBody) {
        AtomicReference<HttpClientRequest> sending = new AtomicReference<>();
        Future<Answer> answer = client.request(options(method, endpoint, headers))
                .compose(request -> {
                    sending.set(request);
                    request.putHeader("Content-Length", Long.toString(before.length() + length + after.length()));
                    // A receiver may answer before the body is through (a 413, an expired session): read it whenever it
                    // comes.
                    Future<Answer> answered =
                            request.response().compose(StreamingHttp::read).onFailure(failure -> closeBody.run());
                    if (before.length() > 0) {
                        request.write(before);
                    }
                    new Progressing(body, renewalNanos(), () -> renewIdleTimeout(request))
                            .pipe()
                            .endOnSuccess(false)
                            .endOnFailure(false)
                            .to(request)
                            .onComplete(piped -> {
                                if (piped.succeeded()) {
                                    request.end(after);
                                } else {
                                    request.reset(0, piped.cause());
                                    closeBody.run();
                                }
                            });
                    return answered;
                });
        return Uni.createFrom()
                .completionStage(answer::toCompletionStage)
                .onCancellation()
                .invoke(() -> {
                    HttpClientRequest request = sending.get();
                    if (request != null) {
                        request.reset();
                    }
                    closeBody.run();
                });
    }

    /**
     * Vert.x times a request out when no <em>answer</em> bytes arrive for its idle timeout, and an upload's answer only
     * comes after its body: a body that takes longer than the timeout to send would fail however steadily it flows.
     * Progress starts the timeout anew (every second, or every quarter of a shorter timeout), so only a real pause (a
     * receiver that stops reading, a source that stops sending) ends the transfer.
     */
    private void renewIdleTimeout(HttpClientRequest request) {
        request.idleTimeout(idleMillis);
    }

    private long renewalNanos() {
        return Duration.ofMillis(Math.min(1_000, idleMillis / 4)).toNanos();
    }

    private static Future<Answer> read(HttpClientResponse response) {
        String capped = response.getHeader(PlatformAnswerLimit.TOO_LARGE_HEADER);
        if (capped != null && response.statusCode() / 100 == 2) {
            return Future.failedFuture(
                    PlatformAnswerUnreadable.tooLarge(response.statusCode(), Long.parseLong(capped)));
        }
        String length = response.getHeader("Content-Length");
        if (length != null && length.matches("\\d{1,18}") && Long.parseLong(length) > MAX_ANSWER_BYTES) {
            response.request().reset();
            return Future.succeededFuture(new Answer(response.statusCode(), response.headers(), ""));
        }
        return response.body().map(body -> new Answer(response.statusCode(), response.headers(), body.toString()));
    }

    /** A body stream that reports its progress, at most once per {@code everyNanos}, as its buffers pass. */
    private static final class Progressing implements ReadStream<Buffer> {
        private final ReadStream<Buffer> body;
        private final long everyNanos;
        private final Runnable progress;
        private long reported = System.nanoTime();

        Progressing(ReadStream<Buffer> body, long everyNanos, Runnable progress) {
            this.body = body;
            this.everyNanos = everyNanos;
            this.progress = progress;
        }

        @Override
        public ReadStream<Buffer> handler(Handler<Buffer> handler) {
            body.handler(
                    handler == null
                            ? null
                            : buffer -> {
                                long now = System.nanoTime();
                                if (now - reported >= everyNanos) {
                                    reported = now;
                                    progress.run();
                                }
                                handler.handle(buffer);
                            });
            return this;
        }

        @Override
        public ReadStream<Buffer> exceptionHandler(Handler<Throwable> handler) {
            body.exceptionHandler(handler);
            return this;
        }

        @Override
        public ReadStream<Buffer> pause() {
            body.pause();
            return this;
        }

        @Override
        public ReadStream<Buffer> resume() {
            body.resume();
            return this;
        }

        @Override
        public ReadStream<Buffer> fetch(long amount) {
            body.fetch(amount);
            return this;
        }

        @Override
        public ReadStream<Buffer> endHandler(Handler<Void> handler) {
            body.endHandler(handler);
            return this;
        }
    }
}
