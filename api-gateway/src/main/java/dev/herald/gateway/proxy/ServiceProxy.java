package dev.herald.gateway.proxy;

import dev.herald.common.api.ErrorCode;
import dev.herald.common.api.LimitRefusal;
import dev.herald.common.rest.RequestIdRoute;
import dev.herald.common.rest.RequestIds;
import dev.herald.common.tracing.TraceParents;
import dev.herald.gateway.config.ServicesConfig;
import dev.herald.gateway.routing.Upstream;
import io.smallrye.mutiny.Uni;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.tracing.TracingPolicy;
import io.vertx.ext.web.RoutingContext;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URI;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import org.jboss.logging.Logger;

/**
 * Forwards an authenticated request to the service that owns it, with the internal JWT in place of the
 * customer's key, and streams the service's answer back. A service that does not answer in bounded time
 * is {@code 503 service_unavailable}, never a hang.
 */
@ApplicationScoped
public class ServiceProxy {
    private static final Logger LOG = Logger.getLogger(ServiceProxy.class);
    /** Set by a service when it answered a read from its cache (free of charge); never shown to customers. */
    public static final String CACHE_HEADER = "x-herald-cache";
    /**
     * Request headers a service may see; everything else (cookies, the customer's key) stays at the edge. Not
     * {@code Accept}: the API answers JSON and its pages HTML whatever a client asks for (as Stripe's does), where a
     * service would negotiate and answer an undocumented {@code 406}, charged, with an unlabelled metric series.
     */
    private static final Set<String> FORWARDED_REQUEST_HEADERS = Set.of("content-type", "idempotency-key");
    /**
     * What an MCP request carries to mcp-server (the streamable HTTP transport's headers), the caller's credential
     * included: mcp-server holds no credential of its own and calls the public API with the caller's, through this
     * gateway, where it is authenticated, scoped, rate limited and metered again for each tool call.
     */
    private static final Set<String> MCP_REQUEST_HEADERS = Set.of(
            "content-type", "accept", "authorization", "mcp-session-id", "mcp-protocol-version", "last-event-id");
    /**
     * What a browser's hosted-page request may carry to accounts-service: {@code accept-language} chooses the page's
     * language when its session names none.
     */
    private static final Set<String> HOSTED_PAGE_REQUEST_HEADERS = Set.of("content-type", "cookie", "accept-language");
    /** Hop-by-hop headers (RFC 9110 section 7.6.1) and ones the gateway sets itself. */
    private static final Set<String> DROPPED_RESPONSE_HEADERS = Set.of(
            "connection",
            "keep-alive",
            "transfer-encoding",
            "te",
            "trailer",
            "upgrade",
            "proxy-authenticate",
            "proxy-authorization",
            RequestIds.HEADER,
            RequestIdRoute.TRACE_ID_HEADER,
            "x-ratelimit-limit",
            "x-ratelimit-remaining",
            "x-ratelimit-reset",
            CACHE_HEADER,
            LimitRefusal.HEADER);

    private final HttpClient client;
    /** Each service's base URL without a trailing slash. */
    private final Map<Upstream, String> upstreams = new EnumMap<>(Upstream.class);

    private final long idleTimeoutMillis;
    private final GatewayErrors errors;

    public ServiceProxy(Vertx vertx, ServicesConfig config, GatewayErrors errors) {
        this.errors = errors;
        this.idleTimeoutMillis = config.idleTimeout().toMillis();
        this.client = vertx.createHttpClient(new HttpClientOptions()
                .setConnectTimeout((int) config.connectTimeout().toMillis())
                .setKeepAlive(true)
                .setMaxPoolSize(64)
                // The request's trace goes on by hand (send): a client span per proxied request would only repeat the
                // server span's timing, at a cost on every request at the edge.
                .setTracingPolicy(TracingPolicy.IGNORE));
        upstreams.put(Upstream.PROFILES, base(config.profiles().url()));
        upstreams.put(Upstream.ACCOUNTS, base(config.accounts().url()));
        upstreams.put(Upstream.POSTS, base(config.posts().url()));
        upstreams.put(Upstream.WEBHOOKS, base(config.webhooks().url()));
        upstreams.put(Upstream.USAGE, base(config.usage().url()));
        upstreams.put(Upstream.MCP, base(config.mcp().url()));
    }

    private static String base(URI url) {
        String base = url.toString();
        return base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
    }

    /**
     * Forwards the request; {@code onAnswer} learns the status and headers the customer gets (503 when the service
     * could not be reached), for metering, and the answer leaves only once what it returns has completed: a unit given
     * back for an answer that does not count is then already back when the customer sends the next request.
     */
    public void forward(
            RoutingContext rc,
            Upstream upstream,
            String servicePath,
            String internalJwt,
            Buffer body,
            BiFunction<Integer, MultiMap, Uni<Void>> onAnswer) {
        send(rc, upstream, servicePath, FORWARDED_REQUEST_HEADERS, internalJwt, body, onAnswer);
    }

    /** Forwards an admitted {@code /mcp} request to mcp-server, whose answer (JSON, or an event stream) is relayed. */
    public void forwardMcp(RoutingContext rc, Buffer body) {
        send(
                rc,
                Upstream.MCP,
                rc.normalizedPath(),
                MCP_REQUEST_HEADERS,
                null,
                body,
                (status, headers) -> Uni.createFrom().voidItem());
    }

    /**
     * Forwards a hosted page request (no credential: the link is the capability). The browser's cookies go
     * along, since the pages bind a session to the browser with one; nothing else the browser sent does.
     */
    public void forwardHostedPage(RoutingContext rc, Upstream upstream, Buffer body) {
        send(
                rc,
                upstream,
                rc.normalizedPath(),
                HOSTED_PAGE_REQUEST_HEADERS,
                null,
                body,
                (status, headers) -> Uni.createFrom().voidItem());
    }

    private void send(
            RoutingContext rc,
            Upstream upstream,
            String servicePath,
            Set<String> forwardedHeaders,
            String internalJwt,
            Buffer body,
            BiFunction<Integer, MultiMap, Uni<Void>> onAnswer) {
        String query = rc.request().query();
        RequestOptions options = requestOptions(
                rc,
                HttpMethod.valueOf(rc.request().method().name()),
                upstream,
                servicePath + (query == null ? "" : "?" + query),
                internalJwt);
        MultiMap incoming = rc.request().headers();
        for (String name : forwardedHeaders) {
            if (incoming.contains(name)) {
                incoming.getAll(name).forEach(value -> options.addHeader(name, value));
            }
        }
        client.request(options)
                .compose(request -> body == null || body.length() == 0 ? request.send() : request.send(body))
                .onSuccess(response -> {
                    // The body waits in the client's buffer while onAnswer's work completes.
                    response.pause();
                    afterwards(onAnswer.apply(response.statusCode(), response.headers()), () -> relay(rc, response));
                })
                .onFailure(failure -> {
                    LOG.warnf(
                            "request %s: %s service unavailable: %s",
                            incoming.get(RequestIds.HEADER), upstream, failure.toString());
                    afterwards(
                            onAnswer.apply(
                                    ErrorCode.SERVICE_UNAVAILABLE.httpStatus(), MultiMap.caseInsensitiveMultiMap()),
                            () -> errors.send(
                                    rc,
                                    ErrorCode.SERVICE_UNAVAILABLE,
                                    "A Herald service is temporarily unavailable. Retry shortly."));
                });
    }

    /**
     * Sends one request of the gateway's own making on the customer's request {@code rc} (its request id and trace go
     * along) and hands back the whole answer instead of relaying it: a batch's items ({@link PostBatchItems}). Fails
     * when the service cannot be reached or does not answer in time.
     */
    public Uni<ServiceAnswer> call(
            RoutingContext rc,
            HttpMethod method,
            Upstream upstream,
            String servicePath,
            Map<String, String> headers,
            String internalJwt,
            Buffer body) {
        RequestOptions options = requestOptions(rc, method, upstream, servicePath, internalJwt);
        headers.forEach(options::putHeader);
        return Uni.createFrom()
                .completionStage(() -> client.request(options)
                        .compose(request -> request.send(body))
                        .compose(response -> response.body()
                                .map(answer -> new ServiceAnswer(response.statusCode(), response.headers(), answer)))
                        .toCompletionStage());
    }

    /** A service's whole answer to {@link #call}. */
    public record ServiceAnswer(int status, MultiMap headers, Buffer body) {}

    /** The request to a service: its address, time bounds, and the request id, trace and internal JWT it carries. */
    private RequestOptions requestOptions(
            RoutingContext rc, HttpMethod method, Upstream upstream, String pathAndQuery, String internalJwt) {
        RequestOptions options = new RequestOptions()
                .setMethod(method)
                .setAbsoluteURI(upstreams.get(upstream) + pathAndQuery)
                .setIdleTimeout(idleTimeoutMillis)
                .setFollowRedirects(false);
        MultiMap incoming = rc.request().headers();
        options.putHeader(RequestIds.HEADER, incoming.get(RequestIds.HEADER));
        String traceParent = TraceParents.current();
        if (traceParent != null) {
            // The service's span is a child of the gateway's server span; the sampling decision travels in the flags.
            options.putHeader(TraceParents.HEADER, traceParent);
            String traceState = incoming.get("tracestate");
            if (traceState != null) {
                options.putHeader("tracestate", traceState);
            }
        }
        if (internalJwt != null) {
            options.putHeader("authorization", "Bearer " + internalJwt);
        }
        return options;
    }

    /** Runs {@code answer} once {@code work} is done, whether it succeeded or not (its failure is its own to report). */
    private static void afterwards(Uni<Void> work, Runnable answer) {
        work.subscribe().with(done -> answer.run(), failure -> answer.run());
    }

    private void relay(RoutingContext rc, HttpClientResponse response) {
        var out = rc.response();
        out.setStatusCode(response.statusCode());
        response.headers().forEach(header -> {
            if (!DROPPED_RESPONSE_HEADERS.contains(header.getKey().toLowerCase())) {
                out.headers().add(header.getKey(), header.getValue());
            }
        });
        if (response.getHeader("content-length") == null) {
            // A streamed answer (a large list, say) has no length up front: pass it on chunked as it came.
            out.setChunked(true);
        }
        response.pipeTo(out).onFailure(failure -> {
            LOG.warnf(
                    "request %s: response stream broke: %s",
                    rc.request().getHeader(RequestIds.HEADER), failure.toString());
            if (!out.ended()) {
                out.reset();
            }
        });
    }

    @PreDestroy
    void close() {
        client.close();
    }
}
