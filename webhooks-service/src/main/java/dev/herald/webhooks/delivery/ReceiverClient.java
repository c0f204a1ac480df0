package dev.herald.webhooks.delivery;

import dev.herald.webhooks.config.WebhooksConfig;
import dev.herald.webhooks.service.ReceiverAddresses.Receiver;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.SocketAddress;
import io.vertx.core.tracing.TracingPolicy;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Map;

/**
 * POSTs deliveries to receivers on Quarkus's Vert.x (Vert.x's web client), never blocking: redirects are not
 * followed, the connection goes to the address the SSRF guard checked (the URL's host still names the TLS server
 * and the {@code Host} header), at most {@code max-in-flight-per-endpoint} connections per receiver, and the
 * answer's body is read only up to 1 KiB. A call that has not been answered within the request timeout fails.
 */
@ApplicationScoped
public class ReceiverClient {
    public static final String USER_AGENT = "Herald-Webhooks/1.0";
    public static final int KEPT_BODY_BYTES = 1024;

    private final WebClient client;
    private final Duration timeout;

    public ReceiverClient(Vertx vertx, WebhooksConfig config) {
        this.timeout = config.requestTimeout();
        this.client = WebClient.create(
                vertx,
                new WebClientOptions()
                        .setUserAgent(USER_AGENT)
                        .setFollowRedirects(false)
                        .setTryUseCompression(false)
                        .setProtocolVersion(HttpVersion.HTTP_1_1)
                        .setKeepAlive(true)
                        .setMaxPoolSize(config.maxInFlightPerEndpoint())
                        .setConnectTimeout((int) Math.min(
                                Integer.MAX_VALUE, config.requestTimeout().toMillis()))
                        .setVerifyHost(true)
                        .setForceSni(true)
                        // Customers' receivers are not part of our traces: no traceparent (our trace and span ids) goes
                        // to
                        // them, and no client span is made per attempt (WebhookSender makes one).
                        .setTracingPolicy(TracingPolicy.IGNORE));
    }

    @PreDestroy
    void close() {
        client.close();
    }

    /** A receiver's answer: its status, at most 1 KiB of its body, and its Retry-After header. */
    public record Answer(int status, String body, String retryAfter) {}

    public Uni<Answer> post(Receiver receiver, byte[] body, Map<String, String> headers) {
        RequestOptions options = new RequestOptions()
                .setHost(receiver.host())
                .setPort(receiver.port())
                .setSsl(receiver.ssl())
                .setURI(receiver.requestUri());
        HttpRequest<String> request = client.request(
                        HttpMethod.POST,
                        SocketAddress.inetSocketAddress(
                                receiver.port(), receiver.address().getHostAddress()),
                        options)
                .timeout(timeout.toMillis())
                .as(new CappedBody(KEPT_BODY_BYTES));
        headers.forEach(request::putHeader);
        return Uni.createFrom()
                .<Answer>emitter(emitter -> request.sendBuffer(Buffer.buffer(body), result -> {
                    if (result.succeeded()) {
                        emitter.complete(new Answer(
                                result.result().statusCode(),
                                result.result().body(),
                                result.result().getHeader("Retry-After")));
                    } else {
                        emitter.fail(result.cause());
                    }
                }))
                .ifNoItem()
                .after(timeout)
                .fail();
    }
}
