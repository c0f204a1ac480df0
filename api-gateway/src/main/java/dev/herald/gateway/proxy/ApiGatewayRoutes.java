package dev.herald.gateway.proxy;

import static dev.herald.gateway.routing.RouteCatalog.API_PREFIX;

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
        router.route().order(-1000).handler(ApiGatewayRoutes::nameAndKeepOutOfQ);
        router.route(API_PREFIX + "/*")
                .order(-100)
                .handler(admission::admit)
                .handler(forwarding::readBodyAndForward)
                .failureHandler(rc -> errors.internalError(rc, rc.failure()));
        router.route(API_PREFIX).order(-100).handler(admission::admit);
    }

    private static void nameAndKeepOutOfQ(RoutingContext rc) {
        MetricsRouteNames.name(rc, MetricsRouteNames.boundedName(rc.normalizedPath()));
        if (rc.normalizedPath().startsWith("/q/") && !rc.request().path().startsWith("/q/")) {
            // Health and metrics answer only to their own paths, never to one that climbs out of /api/v1 or
            // /connect with dot segments (which an Ingress that routes those prefixes alone would let through).
            rc.response().setStatusCode(404).end();
            return;
        }
        rc.next();
    }
}
