package dev.herald.common.rest;

import dev.herald.common.tracing.TraceParents;
import io.opentelemetry.api.trace.Span;
import io.quarkus.vertx.http.runtime.filters.Filters;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.MDC;

/**
 * Gives every request an id before any other handler runs, so even the framework's own answers (404 for
 * an unknown route, 413 for a huge body) carry {@code x-request-id}. A caller-supplied id (the gateway's)
 * is kept so one id follows the request through every service. The id goes into the logging context
 * ({@code requestId}), and the answer names the request's trace in {@code x-trace-id}, the id to look
 * for in every service's logs and in a trace backend.
 */
@ApplicationScoped
public class RequestIdRoute {
    public static final String TRACE_ID_HEADER = "x-trace-id";
    static final String REQUEST_ID_LOG_KEY = "requestId";

    private final boolean acceptIncoming;

    /** The public edge (the gateway) sets {@code herald.request-ids.accept-incoming=false}: clients do not name our requests. */
    public RequestIdRoute(
            @ConfigProperty(name = "herald.request-ids.accept-incoming", defaultValue = "true")
                    boolean acceptIncoming) {
        this.acceptIncoming = acceptIncoming;
    }

    void register(@Observes Filters filters) {
        filters.register(
                rc -> {
                    String id = acceptIncoming
                            ? RequestIds.adoptOrCreate(rc.request().getHeader(RequestIds.HEADER))
                            : RequestIds.newRequestId();
                    rc.request().headers().set(RequestIds.HEADER, id);
                    rc.response().headers().set(RequestIds.HEADER, id);
                    // On Quarkus's request context (a Vert.x duplicated context), so it never leaks into another
                    // request.
                    MDC.put(REQUEST_ID_LOG_KEY, id);
                    String traceId = TraceParents.traceId(Span.current().getSpanContext());
                    if (traceId != null) {
                        rc.response().headers().set(TRACE_ID_HEADER, traceId);
                    }
                    rc.next();
                },
                1000);
    }
}
