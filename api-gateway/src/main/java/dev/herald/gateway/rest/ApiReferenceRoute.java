package dev.herald.gateway.rest;

import dev.herald.gateway.proxy.ApiGatewayRoutes;
import dev.herald.gateway.proxy.MetricsRouteNames;
import dev.herald.gateway.proxy.RateLimitHeaders;
import dev.herald.gateway.routing.RouteCatalog;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

/**
 * {@code GET /api/v1/docs}: the API reference, Swagger UI rendering the document {@link OpenApiDocumentRoute} serves,
 * with the document's webhooks and an error catalogue made from its error schemas. Public, free and counted like the
 * document itself (the per-address window that reports and never refuses). Swagger UI's files come from its webjar
 * (unpacked into the classes by the build, see the pom) and are served here, under {@code /api/v1/docs/}, by exact
 * name (never a directory): no CDN, nothing else of the classpath reachable, and every other path below
 * {@code /api/v1} still goes to the admission chain. The files are read once at start (about 2 MB) and kept gzipped
 * too, since the script bundle is 1.6 MB uncompressed.
 */
@ApplicationScoped
public class ApiReferenceRoute {
    public static final String PATH = RouteCatalog.API_PREFIX + "/docs";
    /** Where the build unpacked Swagger UI's files from its webjar (api-gateway's pom). */
    static final String SWAGGER_UI = "api-reference/swagger-ui/";

    static final String PAGE = "api-reference/";
    /**
     * Only the page's own files: Swagger UI draws its icons as inline SVG and its images as data URIs, and the
     * document is fetched from its own route, so nothing else is needed and nothing else may be fetched (the CSP).
     */
    static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; "
            + "img-src 'self' data:; connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'";

    private record Asset(String contentType, Buffer plain, Buffer gzipped) {}

    private final Map<String, Asset> assets = new LinkedHashMap<>();
    private final RateLimitHeaders rateLimitHeaders;

    public ApiReferenceRoute(RateLimitHeaders rateLimitHeaders) {
        this.rateLimitHeaders = rateLimitHeaders;
        assets.put(PATH, asset(PAGE + "index.html", "text/html;charset=UTF-8"));
        assets.put(PATH + "/api-reference.js", asset(PAGE + "api-reference.js", "text/javascript;charset=UTF-8"));
        assets.put(PATH + "/api-reference.css", asset(PAGE + "api-reference.css", "text/css;charset=UTF-8"));
        assets.put(
                PATH + "/swagger-ui-bundle.js",
                asset(SWAGGER_UI + "swagger-ui-bundle.js", "text/javascript;charset=UTF-8"));
        assets.put(PATH + "/swagger-ui.css", asset(SWAGGER_UI + "swagger-ui.css", "text/css;charset=UTF-8"));
        assets.put(PATH + "/favicon-32x32.png", asset(SWAGGER_UI + "favicon-32x32.png", "image/png"));
    }

    void register(@Observes Router router) {
        // Ahead of the /api/v1/* admission chain, like the document's own route.
        for (String path : assets.keySet()) {
            router.get(path).order(ApiGatewayRoutes.AHEAD_OF_API_ROUTES).handler(this::serve);
        }
    }

    private void serve(RoutingContext rc) {
        MetricsRouteNames.name(rc, rc.currentRoute().getPath());
        Asset asset = assets.get(rc.currentRoute().getPath());
        // Like the document: served without the rate headers if the window could not be counted.
        rateLimitHeaders.countAnonymously(rc, () -> send(rc, asset));
    }

    private static void send(RoutingContext rc, Asset asset) {
        String acceptEncoding = rc.request().getHeader("accept-encoding");
        boolean gzip = acceptEncoding != null && acceptEncoding.contains("gzip");
        rc.response()
                .setStatusCode(200)
                .putHeader("content-type", asset.contentType())
                .putHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY)
                .putHeader("X-Content-Type-Options", "nosniff")
                .putHeader("X-Frame-Options", "DENY")
                .putHeader("Referrer-Policy", "no-referrer")
                // Changes only with a deployment, like the document.
                .putHeader("cache-control", "public, max-age=300")
                .putHeader("vary", "accept-encoding");
        if (gzip) {
            rc.response().putHeader("content-encoding", "gzip").end(asset.gzipped());
        } else {
            rc.response().end(asset.plain());
        }
    }

    private static Asset asset(String resource, String contentType) {
        try (InputStream in = ApiReferenceRoute.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is missing from the classpath");
            }
            byte[] plain = in.readAllBytes();
            ByteArrayOutputStream gzipped = new ByteArrayOutputStream(plain.length / 3);
            try (GZIPOutputStream out = new GZIPOutputStream(gzipped)) {
                out.write(plain);
            }
            return new Asset(contentType, Buffer.buffer(plain), Buffer.buffer(gzipped.toByteArray()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
