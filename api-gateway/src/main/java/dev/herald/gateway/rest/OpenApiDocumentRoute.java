package dev.herald.gateway.rest;

import dev.herald.gateway.proxy.ApiGatewayRoutes;
import dev.herald.gateway.proxy.RateLimitHeaders;
import dev.herald.gateway.routing.RouteCatalog;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * {@code GET /api/v1/openapi.json}: the OpenAPI 3.1 document of the public API, a hand-maintained resource
 * ({@value #RESOURCE}). Public like any API reference: no credential, no metering. Like every other answer it
 * carries the rate-limit headers (spec section 8), from the per-address window that requests without a credential
 * count in; that window reports and never refuses, so the document is always served. It is registered ahead of
 * {@link ApiGatewayRoutes}, whose catch-all would otherwise demand a key; only this exact path and method are
 * public, so the route map stays unprobeable anonymously.
 */
@ApplicationScoped
public class OpenApiDocumentRoute {
    public static final String PATH = RouteCatalog.API_PREFIX + "/openapi.json";
    static final String RESOURCE = "openapi/herald-public-api.json";

    private final Buffer document = Buffer.buffer(load());
    private final RateLimitHeaders rateLimitHeaders;

    public OpenApiDocumentRoute(RateLimitHeaders rateLimitHeaders) {
        this.rateLimitHeaders = rateLimitHeaders;
    }

    void register(@Observes Router router) {
        // Lower order runs first: ahead of the /api/v1/* admission chain.
        router.get(PATH).order(ApiGatewayRoutes.AHEAD_OF_API_ROUTES).handler(this::serve);
    }

    private void serve(RoutingContext rc) {
        // The document does not depend on the database: served without the headers if they could not be counted.
        rateLimitHeaders.countAnonymously(rc, () -> send(rc));
    }

    private void send(RoutingContext rc) {
        rc.response()
                .setStatusCode(200)
                .putHeader("content-type", "application/json")
                // Changes only with a deployment; a short cache spares clients that poll it.
                .putHeader("cache-control", "public, max-age=300")
                .end(document);
    }

    private static byte[] load() {
        try (InputStream in = OpenApiDocumentRoute.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the classpath");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
