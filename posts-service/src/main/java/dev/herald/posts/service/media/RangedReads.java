package dev.herald.posts.service.media;

import dev.herald.common.net.PublicUrls;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Promise;
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
import io.vertx.core.tracing.TracingPolicy;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * {@link MediaProbe}'s reads: one ranged {@code GET} to a checked address on Vert.x's non-blocking client, of which at
 * most {@link MediaProbe#READ_BYTES} are kept; the connection is dropped once they are in (a host that ignores the
 * range would send the whole file) and for any answer not read (a redirect, an error status).
 */
final class RangedReads {
    /** Where to connect for a checked URL: its checked address (tests route it to their local server). */
    @FunctionalInterface
    interface Dialer {
        SocketAddress address(PublicUrls.Target target);
    }

    static final Dialer CHECKED_ADDRESS = target ->
            SocketAddress.inetSocketAddress(target.port(), target.address().getHostAddress());

    /** A 200 or 206 answer: status, the headers a probe uses, and at most {@link MediaProbe#READ_BYTES} of body. */
    record Fetched(String url, int status, String contentType, Long total, long rangeStart, byte[] body) {}

    /** An answer, or where it redirects. */
    record Answer(Fetched fetched, String location) {}

    private final HttpClient client;
    private final Dialer dialer;

    RangedReads(Vertx vertx, HttpClientOptions options, Duration timeout, Dialer dialer) {
        this.dialer = dialer;
        int millis = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
        // A connection per probe: the answer is mostly dropped unread, which spoils a pooled connection.
        this.client = vertx.createHttpClient(options.setProtocolVersion(HttpVersion.HTTP_1_1)
                .setKeepAlive(false)
                .setTryUseCompression(false)
                .setVerifyHost(true)
                .setForceSni(true)
                .setConnectTimeout(millis)
                // A post's items (at most 35) are probed at once, often from one host.
                .setMaxPoolSize(35)
                // Media hosts are customers': no traceparent (our trace ids) goes to them.
                .setTracingPolicy(TracingPolicy.IGNORE));
    }

    void close() {
        client.close();
    }

    /** Reads from {@code from} on; {@code current} holds the request in flight, {@code read} counts the bytes kept. */
    Uni<Answer> get(
            String url,
            PublicUrls.Target target,
            long from,
            AtomicReference<HttpClientRequest> current,
            LongAdder read) {
        RequestOptions options = new RequestOptions()
                .setMethod(HttpMethod.GET)
                .setHost(target.host())
                .setPort(target.port())
                .setSsl(target.ssl())
                .setURI(target.requestUri())
                .setFollowRedirects(false)
                .setServer(dialer.address(target))
                .putHeader("Range", "bytes=" + from + "-" + (from + MediaProbe.READ_BYTES - 1))
                .putHeader("Accept-Encoding", "identity");
        return Uni.createFrom().completionStage(() -> {
            Promise<Answer> answer = Promise.promise();
            client.request(options).onFailure(answer::tryFail).onSuccess(request -> {
                current.set(request);
                // Failures reach the answer through response(); a reset on timeout is ours.
                request.exceptionHandler(expected -> {});
                request.response().onFailure(answer::tryFail).onSuccess(response -> read(url, response, answer, read));
                request.end();
            });
            return answer.future().toCompletionStage();
        });
    }

    private static void read(String url, HttpClientResponse response, Promise<Answer> answer, LongAdder read) {
        int status = response.statusCode();
        String location = response.getHeader("Location");
        if (status >= 300 && status < 400 && status != 304 && location != null) {
            answer.tryComplete(new Answer(null, location));
            discard(response);
            return;
        }
        if (status != 200 && status != 206) {
            discard(response);
            answer.tryFail(new MediaProbe.Refusal(
                    MediaProbe.MEDIA_UNAVAILABLE, "The media host answered HTTP " + status + " for " + url + "."));
            return;
        }
        ContentTypes.Range range = ContentTypes.range(status, response.getHeader("Content-Range"));
        Long total = status == 206 ? range.total() : ContentTypes.length(response.getHeader("Content-Length"));
        String type = ContentTypes.bare(response.getHeader("Content-Type"));
        Buffer body = Buffer.buffer();
        Runnable done = () -> answer.tryComplete(
                new Answer(new Fetched(url, status, type, total, range.start(), body.getBytes()), null));
        response.exceptionHandler(failure -> {
            if (!answer.future().isComplete()) {
                answer.tryFail(failure);
            }
        });
        response.handler(chunk -> {
            int room = MediaProbe.READ_BYTES - body.length();
            if (room <= 0) {
                return;
            }
            Buffer kept = chunk.length() > room ? chunk.getBuffer(0, room) : chunk;
            body.appendBuffer(kept);
            read.add(kept.length());
            if (body.length() >= MediaProbe.READ_BYTES) {
                // Enough: a host that ignored the range would send the whole file.
                done.run();
                reset(response.request());
            }
        });
        response.endHandler(ended -> done.run());
    }

    /** Drops an answer unread; the reset is ours, so it is not reported as an error. */
    private static void discard(HttpClientResponse response) {
        response.exceptionHandler(expected -> {});
        response.request().reset();
    }

    static void reset(HttpClientRequest request) {
        if (request != null) {
            request.reset();
        }
    }
}
