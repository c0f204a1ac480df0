package dev.herald.gateway.proxy;

import static dev.herald.gateway.routing.RouteCatalog.API_PREFIX;

import dev.herald.common.api.ErrorCode;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Set;

/**
 * The public API under {@code /api/v1}, as the chain of steps every request goes through: {@link ApiAdmission}
 * (authenticate the credential, find the route and check its scope, count the request in the rate window and the
 * monthly allowance; each refusal answers with the envelope and the rate-limit headers), then {@link ApiForwarding}
 * (read the body, at most 1 MiB, and forward it to the owning service, or serve it in the gateway: {@link LogsRoute},
 * {@link PostBatchRoute}). A failure nothing answered is {@code 500 internal_error}.
 */
@ApplicationScoped
public class ApiGatewayRoutes {
    /**
     * What the public port serves of Quarkus's own endpoints under {@code /q}: the probes the chart's kubelet and
     * the local launcher ask, and the Prometheus text. Anything else there (the full health report with its checks'
     * data, health groups, whatever an extension adds later: dev UI, OpenAPI, Swagger UI) is an undocumented route.
     * Moving these to Quarkus's management port too is left for its own change (docs/security.md).
     */
    static final Set<String> PUBLIC_Q_PATHS =
            Set.of("/q/health/live", "/q/health/ready", "/q/health/started", "/q/metrics");

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
        router.route(API_PREFIX + "/*")
                .order(-100)
                .handler(admission::admit)
                .handler(forwarding::readBodyAndForward)
                .failureHandler(rc -> errors.internalError(rc, rc.failure()));
        router.route(API_PREFIX).order(-100).handler(admission::admit);
    }

    private static void nameBounded(RoutingContext rc) {
        MetricsRouteNames.name(rc, MetricsRouteNames.boundedName(rc.normalizedPath()));
        rc.next();
    }

    private void keepOutOfQ(RoutingContext rc) {
        String path = rc.normalizedPath();
        HttpMethod method = rc.request().method();
        boolean read = method == HttpMethod.GET || method == HttpMethod.HEAD;
        if ((path.startsWith("/q/") || path.equals("/q"))
                && !(read
                        && PUBLIC_Q_PATHS.contains(path)
                        && rc.request().path().equals(path))) {
            // Health and metrics answer only to a read of their own paths, spelled as such: never to one that climbs
            // out of /api/v1 or /connect with dot segments (which an Ingress that routes those prefixes alone would
            // let through) or that percent-encodes its letters; and nothing else under /q answers at all.
            errors.send(rc, ErrorCode.NOT_FOUND, "No such route: " + method + " " + path + ".");
            return;
        }
        rc.next();
    }
}
