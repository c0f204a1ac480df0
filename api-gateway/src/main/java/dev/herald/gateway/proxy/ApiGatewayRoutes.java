package dev.herald.gateway.proxy;

import static dev.herald.gateway.routing.RouteCatalog.API_PREFIX;

import dev.herald.common.api.ErrorCode;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * The public API under {@code /api/v1}, as the chain of steps every request goes through: {@link ApiAdmission}
 * (authenticate the credential, find the route and check its scope, count the request in the rate window and the
 * monthly allowance; each refusal answers with the envelope and the rate-limit headers), then {@link ApiForwarding}
 * (read the body, at most 1 MiB, and forward it to the owning service, or serve it in the gateway: {@link LogsRoute},
 * {@link PostBatchRoute}). A failure nothing answered is {@code 500 internal_error}.
 */
@ApplicationScoped
public class ApiGatewayRoutes {
    /** After the request-id filter (-1000) and {@code /q} refusal (-900), before Quarkus Security's (-200). */
    public static final int API_ROUTE_ORDER = -250;
    /**
     * The API's public documents ({@code /api/v1/docs}, {@code /api/v1/openapi.json}), served without a credential: still
     * after Quarkus's CORS filter (-300), as they were before the API moved ahead of Quarkus Security.
     */
    public static final int AHEAD_OF_API_ROUTES = API_ROUTE_ORDER - 10;

    private final ApiAdmission admission;
    private final ApiForwarding forwarding;
    private final GatewayErrors errors;

    ApiGatewayRoutes(ApiAdmission admission, ApiForwarding forwarding, GatewayErrors errors) {
        this.admission = admission;
        this.forwarding = forwarding;
        this.errors = errors;
    }

    void register(@Observes Router router) {
        // Before every other route: a bounded metrics name for any request, so one no route names (a path with dot
        // segments that resolves to /q/health, say) is never labelled with its raw path. Routes that match rename it.
        router.route().order(-1000).handler(ApiGatewayRoutes::nameBounded);
        // After common's request-id filter (also -1000, registered later), so the refusal carries the request's id.
        router.route("/q*").order(-900).handler(this::keepOutOfQ);
        // Ahead of Quarkus Security's handlers (route order -200 and after): the API checks its own credentials
        // (ApiAdmission), so the deferred identity and REST's metrics-template lookup they add to every request would
        // be work for nothing on the gateway's busiest path.
        router.route(API_PREFIX + "/*")
                .order(API_ROUTE_ORDER)
                .handler(admission::admit)
                .handler(forwarding::readBodyAndForward)
                .failureHandler(rc -> errors.internalError(rc, rc.failure()));
        router.route(API_PREFIX).order(API_ROUTE_ORDER).handler(admission::admit);
    }

    private static void nameBounded(RoutingContext rc) {
        MetricsRouteNames.name(rc, MetricsRouteNames.boundedName(rc.normalizedPath()));
        rc.next();
    }

    private void keepOutOfQ(RoutingContext rc) {
        String path = rc.normalizedPath();
        if (path.startsWith("/q/") || path.equals("/q")) {
            // Quarkus's own endpoints (probes, metrics) answer on the management interface's port only; on the public
            // port nothing under /q answers, whatever an extension adds there later (OWASP API9: an inventory of
            // exactly the documented routes).
            HttpMethod method = rc.request().method();
            errors.send(rc, ErrorCode.NOT_FOUND, "No such route: " + method + " " + path + ".");
            return;
        }
        rc.next();
    }
}
