package dev.herald.gateway.proxy;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.semconv.ClientAttributes;
import io.opentelemetry.semconv.HttpAttributes;
import io.opentelemetry.semconv.UrlAttributes;
import io.opentelemetry.semconv.UserAgentAttributes;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * The server span of every request to the gateway, whose trace id the answer names ({@code x-trace-id}) and the
 * services continue. Started here instead of by Quarkus's Vert.x HTTP instrumentation
 * ({@code quarkus.otel.instrument.vertx-http=false}), which computes a dozen attributes (the URL parsed, the peer's
 * address and port, the user agent) for every request before the sampler decides, when at the public edge almost no
 * span is recorded: a tenth of the gateway's CPU per request in {@code bench/gateway-overhead.sh}'s profile. The trace
 * is made as before: a client's {@code traceparent} continues its trace, the gateway's own sampler
 * ({@code traceidratio}) decides whether it is recorded, and only a recorded span is given its attributes.
 */
@ApplicationScoped
public class ServerSpans {
    /** Before every other route, common's request-id filter (-1000) included: it answers the trace id. */
    static final int ROUTE_ORDER = -1100;

    private static final TextMapGetter<HttpServerRequest> HEADERS = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(HttpServerRequest request) {
            return request.headers().names();
        }

        @Override
        public String get(HttpServerRequest request, String name) {
            return request == null ? null : request.getHeader(name);
        }
    };

    private final Tracer tracer;
    private final TextMapPropagator propagator;

    ServerSpans(OpenTelemetry openTelemetry) {
        this.tracer = openTelemetry.getTracer("dev.herald.gateway");
        this.propagator = openTelemetry.getPropagators().getTextMapPropagator();
    }

    void register(@Observes Router router) {
        router.route().order(ROUTE_ORDER).handler(this::start);
    }

    private void start(RoutingContext rc) {
        HttpServerRequest request = rc.request();
        String method = request.method().name();
        Context parent = propagator.extract(Context.root(), request, HEADERS);
        Span span = tracer.spanBuilder(method)
                .setSpanKind(SpanKind.SERVER)
                .setParent(parent)
                .startSpan();
        // On the request's own Vert.x context (Quarkus's context storage), so whatever runs for this request sees it.
        Scope scope = parent.with(span).makeCurrent();
        if (span.isRecording()) {
            span.setAttribute(HttpAttributes.HTTP_REQUEST_METHOD, method);
            span.setAttribute(UrlAttributes.URL_PATH, request.path());
            span.setAttribute(UrlAttributes.URL_SCHEME, request.scheme());
            span.setAttribute(UserAgentAttributes.USER_AGENT_ORIGINAL, request.getHeader("user-agent"));
            if (request.remoteAddress() != null) {
                span.setAttribute(
                        ClientAttributes.CLIENT_ADDRESS, request.remoteAddress().hostAddress());
            }
        }
        rc.addEndHandler(ended -> {
            if (span.isRecording()) {
                int status = rc.response().getStatusCode();
                span.setAttribute(HttpAttributes.HTTP_RESPONSE_STATUS_CODE, (long) status);
                String route = MetricsRouteNames.of(rc);
                if (route != null) {
                    span.setAttribute(HttpAttributes.HTTP_ROUTE, route);
                    span.updateName(method + " " + route);
                }
                if (status >= 500 || ended.failed()) {
                    span.setStatus(StatusCode.ERROR);
                }
            }
            span.end();
            scope.close();
        });
        rc.next();
    }
}
