package dev.herald.gateway.rest;

import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Every answer below {@code /dashboard} (pages, redirects, the style sheet and script) carries the same protections:
 * a Content-Security-Policy that allows only the dashboard's own style sheet and script and forms posting to itself,
 * no framing, no MIME sniffing, no referrer (sign-in links carry their token in the URL), and no caching.
 */
@ApplicationScoped
public class DashboardSecurityHeaders {
    static final String CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'self'; script-src 'self'; "
            + "img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

    void register(@Observes Router router) {
        router.route("/dashboard*").order(-150).handler(DashboardSecurityHeaders::protect);
    }

    private static void protect(RoutingContext rc) {
        rc.response()
                .putHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY)
                .putHeader("X-Content-Type-Options", "nosniff")
                .putHeader("X-Frame-Options", "DENY")
                .putHeader("Referrer-Policy", "no-referrer")
                .putHeader("Cache-Control", "no-store");
        rc.next();
    }
}
