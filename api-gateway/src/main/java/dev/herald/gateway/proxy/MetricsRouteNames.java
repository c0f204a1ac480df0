package dev.herald.gateway.proxy;

import io.vertx.core.http.impl.HttpServerRequestInternal;
import io.vertx.ext.web.RoutingContext;

/**
 * Names a request's route in the HTTP server metrics ({@code http_server_requests_seconds{uri}}). Quarkus's Micrometer
 * binder takes the label from the template a REST endpoint leaves in the request's context ({@code UrlPathTemplate});
 * the gateway's own routes are catch-alls, so without a name every path, ids included, would become a series of its
 * own (metric labels must stay a bounded set). Each request is first named by its area ({@link #boundedName}, in a
 * route ahead of all others), then by the catalog's template (or its own route's name) once it matched.
 */
public final class MetricsRouteNames {
    /** The context key Quarkus REST and Quarkus's Micrometer binder share. */
    private static final String TEMPLATE_KEY = "UrlPathTemplate";

    private MetricsRouteNames() {}

    /** The name of a request no route has named yet: the area of the API it is in, never anything the client chose. */
    public static String boundedName(String normalizedPath) {
        for (String area : new String[] {"/api/v1", "/connect", "/admin/v1", "/oauth", "/q"}) {
            if (normalizedPath.equals(area) || normalizedPath.startsWith(area + "/")) {
                return area + "/*";
            }
        }
        return "/*";
    }

    /** The request's name as last set (ours, or a REST endpoint's template); null when none was. */
    public static String of(RoutingContext rc) {
        return rc.request() instanceof HttpServerRequestInternal request
                ? request.context().getLocal(TEMPLATE_KEY)
                : null;
    }

    public static void name(RoutingContext rc, String template) {
        if (rc.request() instanceof HttpServerRequestInternal request) {
            request.context().putLocal(TEMPLATE_KEY, template);
        }
    }
}
