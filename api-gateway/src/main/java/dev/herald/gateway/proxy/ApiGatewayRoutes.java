package dev.herald.gateway.proxy;

import dev.herald.common.api.ErrorCode;
import dev.herald.gateway.model.ApiKey;
import dev.herald.gateway.routing.ApiRoute;
import dev.herald.gateway.routing.RouteCatalog;
import dev.herald.gateway.routing.RouteMatch;
import dev.herald.gateway.service.ApiKeyAuthenticator;
import dev.herald.gateway.service.RateLimitStatus;
import dev.herald.gateway.service.RateLimiter;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Map;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * The public API under {@code /api/v1}: authenticate the key, count the request in its rate window,
 * find the route and check its scope, read the body (at most 1 MiB, JSON only), then forward it to the
 * owning service. Each refusal answers with the envelope and the rate-limit headers.
 */
@ApplicationScoped
public class ApiGatewayRoutes {
    public static final String API_PREFIX = "/api/v1";
    public static final int MAX_BODY_BYTES = 1024 * 1024;
    private static final Logger LOG = Logger.getLogger(ApiGatewayRoutes.class);
    private static final String ROUTE = "herald.route";
    private static final String KEY = "herald.key";

    private final ApiKeyAuthenticator authenticator;
    private final RateLimiter rateLimiter;
    private final RouteCatalog catalog;
    private final ServiceProxy proxy;
    private final InternalTokenCache tokens;
    private final GatewayErrors errors;

    public ApiGatewayRoutes(ApiKeyAuthenticator authenticator, RateLimiter rateLimiter, RouteCatalog catalog,
                            ServiceProxy proxy, InternalTokenCache tokens, GatewayErrors errors) {
        this.authenticator = authenticator;
        this.rateLimiter = rateLimiter;
        this.catalog = catalog;
        this.proxy = proxy;
        this.tokens = tokens;
        this.errors = errors;
    }

    void register(@Observes Router router) {
        router.route(API_PREFIX + "/*").order(-100)
                .handler(this::admit)
                .handler(this::readBodyAndForward)
                .failureHandler(this::fail);
        router.route(API_PREFIX).order(-100).handler(this::admit);
    }

    /** Everything that can refuse a request before its body is read. */
    private void admit(RoutingContext rc) {
        // Hold the body back until the caller is known: nobody gets to upload to us without a key.
        rc.request().pause();
        authenticator.authenticate(rc.request().getHeader("authorization"))
                .flatMap(key -> countRequest(rc, key).map(status -> {
                    setRateLimitHeaders(rc, status);
                    return key;
                }))
                .subscribe().with(key -> {
                    if (key.isEmpty()) {
                        errors.send(rc, ErrorCode.AUTHENTICATION_FAILED,
                                "No valid API key was provided. Send Authorization: Bearer <your API key>.");
                        return;
                    }
                    String method = rc.request().method().name();
                    RouteMatch match = catalog.match(method, servicePath(rc));
                    if (match.route().isEmpty()) {
                        if (match.pathExists()) {
                            rc.response().putHeader("allow", String.join(", ", match.allowedMethods()));
                            errors.send(rc, ErrorCode.METHOD_NOT_ALLOWED, method + " is not supported on this route.");
                        } else {
                            errors.send(rc, ErrorCode.NOT_FOUND, "No such route: " + method + " " + API_PREFIX + servicePath(rc) + ".");
                        }
                        return;
                    }
                    ApiRoute route = match.route().get();
                    if (route.scope() != null && !key.get().scopeSet().contains(route.scope())) {
                        errors.send(rc, ErrorCode.INSUFFICIENT_SCOPE, "This API key lacks the " + route.scope() + " scope.",
                                Map.of("required_scope", route.scope()));
                        return;
                    }
                    if (hasBody(rc) && !isJson(rc.request().getHeader("content-type"))) {
                        errors.send(rc, ErrorCode.UNSUPPORTED_MEDIA_TYPE, "The request body must be application/json.");
                        return;
                    }
                    rc.put(ROUTE, route);
                    rc.put(KEY, key.get());
                    rc.next();
                }, failure -> {
                    LOG.errorf(failure, "request %s: admission failed", rc.request().getHeader("x-request-id"));
                    errors.send(rc, ErrorCode.SERVICE_UNAVAILABLE, "Herald is temporarily unavailable. Retry shortly.");
                });
    }

    /**
     * Buffers the body (at most 1 MiB) before anything reaches a service, so an oversized request is
     * refused whole instead of arriving half-written.
     */
    private void readBodyAndForward(RoutingContext rc) {
        HttpServerRequest request = rc.request();
        String declared = request.getHeader("content-length");
        if (declared != null && exceeds(declared)) {
            tooLarge(rc);
            return;
        }
        Buffer body = Buffer.buffer();
        boolean[] refused = {false};
        request.handler(chunk -> {
            if (refused[0]) {
                return;
            }
            if (body.length() + chunk.length() > MAX_BODY_BYTES) {
                refused[0] = true;
                tooLarge(rc);
                return;
            }
            body.appendBuffer(chunk);
        });
        request.exceptionHandler(failure -> LOG.debugf("request %s: body not received: %s", request.getHeader("x-request-id"), failure));
        request.endHandler(ended -> {
            if (!refused[0]) {
                ApiRoute route = rc.get(ROUTE);
                ApiKey key = rc.get(KEY);
                proxy.forward(rc, route.upstream(), servicePath(rc), tokens.tokenFor(key), body);
            }
        });
        request.resume();
    }

    private void tooLarge(RoutingContext rc) {
        // The rest of the upload is not wanted; closing after the answer stops the client from sending it.
        rc.response().putHeader("connection", "close");
        errors.send(rc, ErrorCode.PAYLOAD_TOO_LARGE, "The request body is larger than 1 MiB.");
    }

    private static boolean exceeds(String contentLength) {
        try {
            return Long.parseLong(contentLength.trim()) > MAX_BODY_BYTES;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private void fail(RoutingContext rc) {
        LOG.errorf(rc.failure(), "request %s failed", rc.request().getHeader("x-request-id"));
        errors.send(rc, ErrorCode.INTERNAL_ERROR, "Something went wrong on our side.");
    }

    private Uni<RateLimitStatus> countRequest(RoutingContext rc, Optional<ApiKey> key) {
        if (key.isPresent()) {
            return rateLimiter.countKeyRequest(key.get().workspaceId, key.get().mode.wireName());
        }
        return rateLimiter.countAnonymousRequest(rc.request().remoteAddress().hostAddress());
    }

    private static void setRateLimitHeaders(RoutingContext rc, RateLimitStatus status) {
        rc.response().putHeader("X-RateLimit-Limit", Integer.toString(status.limit()))
                .putHeader("X-RateLimit-Remaining", Integer.toString(status.remaining()))
                .putHeader("X-RateLimit-Reset", Long.toString(status.resetEpochSeconds()));
    }

    /** The request path below {@code /api/v1}, normalized (no dot segments, no double slashes). */
    private static String servicePath(RoutingContext rc) {
        String path = rc.normalizedPath();
        return path.length() > API_PREFIX.length() ? path.substring(API_PREFIX.length()) : "";
    }

    private static boolean hasBody(RoutingContext rc) {
        HttpMethod method = rc.request().method();
        if (method == HttpMethod.GET || method == HttpMethod.HEAD) {
            return false;
        }
        String length = rc.request().getHeader("content-length");
        return rc.request().getHeader("transfer-encoding") != null || (length != null && !length.trim().equals("0"));
    }

    private static boolean isJson(String contentType) {
        if (contentType == null) {
            return false;
        }
        String type = contentType.split(";", 2)[0].trim().toLowerCase();
        return type.equals("application/json");
    }
}
