package dev.herald.gateway.proxy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.api.LimitRefusal;
import dev.herald.common.auth.InternalToken;
import dev.herald.common.auth.InternalTokens;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.rest.RequestIds;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.RequestLog;
import dev.herald.gateway.config.UsageConfig;
import dev.herald.gateway.repository.RequestLogRepository;
import dev.herald.gateway.routing.ApiRoute;
import dev.herald.gateway.routing.RouteCatalog;
import dev.herald.gateway.routing.RouteMatch;
import dev.herald.gateway.routing.Upstream;
import dev.herald.gateway.service.Admission;
import dev.herald.gateway.service.CallerAuthenticator;
import dev.herald.gateway.service.Credential;
import dev.herald.gateway.service.RateLimitStatus;
import dev.herald.gateway.service.RequestAdmission;
import dev.herald.gateway.service.RequestLogService;
import dev.herald.gateway.service.RequestLogWriter;
import io.smallrye.mutiny.Uni;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.jboss.logging.Logger;

/**
 * The public API under {@code /api/v1}: authenticate the key, find the route and check its scope, count
 * the request (rate window, monthly allowance), read the body (at most 1 MiB, JSON only), then forward it
 * to the owning service. Each refusal answers with the envelope and the rate-limit headers.
 */
@ApplicationScoped
public class ApiGatewayRoutes {
    public static final String API_PREFIX = "/api/v1";
    public static final int MAX_BODY_BYTES = 1024 * 1024;
    private static final Logger LOG = Logger.getLogger(ApiGatewayRoutes.class);
    private static final String ROUTE = "herald.route";
    private static final String KEY = "herald.key";
    private static final String ADMISSION = "herald.admission";
    /** The one claim GET /usage needs from the edge: the month's API requests, this one included. */
    private static final String API_REQUESTS_USED_CLAIM = "api_requests_used";

    private static final String CHALLENGE = "Bearer realm=\"herald\"";

    private final CallerAuthenticator authenticator;
    private final RequestAdmission admission;
    private final RouteCatalog catalog;
    private final ServiceProxy proxy;
    private final InternalTokenCache tokens;
    private final InternalTokens issuers;
    private final GatewayErrors errors;
    private final UsageConfig usage;
    private final RequestLogWriter logWriter;
    private final RequestLogService logService;
    private final ObjectMapper mapper;
    private final Clock clock;

    public ApiGatewayRoutes(
            CallerAuthenticator authenticator,
            RequestAdmission admission,
            RouteCatalog catalog,
            ServiceProxy proxy,
            InternalTokenCache tokens,
            InternalTokens issuers,
            GatewayErrors errors,
            UsageConfig usage,
            RequestLogWriter logWriter,
            RequestLogService logService,
            ObjectMapper mapper,
            Clock clock) {
        this.authenticator = authenticator;
        this.admission = admission;
        this.catalog = catalog;
        this.proxy = proxy;
        this.tokens = tokens;
        this.issuers = issuers;
        this.errors = errors;
        this.usage = usage;
        this.logWriter = logWriter;
        this.logService = logService;
        this.mapper = mapper;
        this.clock = clock;
    }

    void register(@Observes Router router) {
        // Before every other route: a bounded metrics name for any request, so one no route names (a path with dot
        // segments that resolves to /q/health, say) is never labelled with its raw path. Routes that match rename it.
        router.route().order(-1000).handler(rc -> {
            MetricsRouteNames.name(rc, MetricsRouteNames.boundedName(rc.normalizedPath()));
            if (rc.normalizedPath().startsWith("/q/") && !rc.request().path().startsWith("/q/")) {
                // Health and metrics answer only to their own paths, never to one that climbs out of /api/v1 or
                // /connect with dot segments (which an Ingress that routes those prefixes alone would let through).
                rc.response().setStatusCode(404).end();
                return;
            }
            rc.next();
        });
        router.route(API_PREFIX + "/*")
                .order(-100)
                .handler(this::admit)
                .handler(this::readBodyAndForward)
                .failureHandler(this::fail);
        router.route(API_PREFIX).order(-100).handler(this::admit);
    }

    /** Everything that can refuse a request before its body is read. */
    private void admit(RoutingContext rc) {
        // Hold the body back until the caller is known: nobody gets to upload to us without a key.
        rc.request().pause();
        // Every answer is one tenant's, and some hold a secret shown once (a webhook's, a connect link): no cache keeps
        // them.
        rc.response().putHeader("Cache-Control", "no-store");
        if (rc.request().headers().getAll("authorization").size() > 1) {
            refuseAmbiguousCredentials(rc);
            return;
        }
        authenticator
                .authenticate(rc.request().getHeader("authorization"))
                .flatMap(key -> key.isPresent() ? admitKeyRequest(rc, key.get()) : refuseAnonymous(rc))
                .subscribe()
                .with(
                        admitted -> {
                            if (admitted) {
                                rc.next();
                            }
                        },
                        failure -> {
                            LOG.errorf(
                                    failure,
                                    "request %s: admission failed",
                                    rc.request().getHeader("x-request-id"));
                            errors.send(
                                    rc,
                                    ErrorCode.SERVICE_UNAVAILABLE,
                                    "Herald is temporarily unavailable. Retry shortly.");
                        });
    }

    private Uni<Boolean> refuseAnonymous(RoutingContext rc) {
        return admission
                .countAnonymousRequest(rc.request().remoteAddress().hostAddress())
                .map(rate -> {
                    setRateLimitHeaders(rc, rate);
                    // RFC 6750 section 3: a challenge on every 401, naming the failure when a token was presented.
                    boolean presented =
                            CallerAuthenticator.bearerToken(rc.request().getHeader("authorization")) != null;
                    rc.response()
                            .putHeader(
                                    "WWW-Authenticate",
                                    presented ? CHALLENGE + ", error=\"invalid_token\"" : CHALLENGE);
                    errors.send(
                            rc,
                            ErrorCode.AUTHENTICATION_FAILED,
                            "No valid credential was provided. Send Authorization: Bearer <your API key or access token>.");
                    return false;
                });
    }

    /**
     * Two Authorization headers: which one a cache or proxy in front honoured is unknowable, so neither is
     * (RFC 6750 section 3.1 answers a request that presents a token more than once with invalid_request).
     */
    private void refuseAmbiguousCredentials(RoutingContext rc) {
        admission
                .countAnonymousRequest(rc.request().remoteAddress().hostAddress())
                .subscribe()
                .with(
                        rate -> {
                            setRateLimitHeaders(rc, rate);
                            errors.send(rc, ErrorCode.INVALID_REQUEST, "Send one Authorization header, not several.");
                        },
                        failure -> {
                            LOG.errorf(
                                    failure,
                                    "request %s: admission failed",
                                    rc.request().getHeader("x-request-id"));
                            errors.send(
                                    rc,
                                    ErrorCode.SERVICE_UNAVAILABLE,
                                    "Herald is temporarily unavailable. Retry shortly.");
                        });
    }

    /**
     * Refusals for the route itself (unknown, wrong method, missing scope, not JSON) are decided first but
     * answered after the rate window counted the request: they are rate limited, never metered.
     */
    private Uni<Boolean> admitKeyRequest(RoutingContext rc, Credential key) {
        String method = rc.request().method().name();
        logWhenAnswered(rc, key);
        RouteMatch match = catalog.match(method, servicePath(rc));
        match.route().ifPresent(route -> MetricsRouteNames.name(rc, API_PREFIX + route.template()));
        Optional<Runnable> refusal = routeRefusal(rc, method, match, key);
        boolean metered = refusal.isEmpty() && match.route().get().metered();
        return admission.admitKeyRequest(key.workspaceId(), key.mode(), metered).map(verdict -> {
            setRateLimitHeaders(rc, verdict.rateLimit());
            switch (verdict.outcome()) {
                case RATE_LIMITED -> {
                    rateLimited(rc, verdict.rateLimit());
                    return false;
                }
                case ALLOWANCE_SPENT -> {
                    allowanceSpent(rc, key, verdict);
                    return false;
                }
                default -> {}
            }
            if (refusal.isPresent()) {
                refusal.get().run();
                return false;
            }
            rc.put(ROUTE, match.route().get());
            rc.put(KEY, key);
            rc.put(ADMISSION, verdict);
            return true;
        });
    }

    private Optional<Runnable> routeRefusal(RoutingContext rc, String method, RouteMatch match, Credential key) {
        if (rc.request().path().indexOf(';') >= 0) {
            // JAX-RS would read "/posts/pst_1;x=1" as the post with a matrix parameter: no id has a ';', so no such
            // route.
            return Optional.of(() -> errors.send(
                    rc, ErrorCode.NOT_FOUND, "No such route: " + method + " " + API_PREFIX + servicePath(rc) + "."));
        }
        if (match.route().isEmpty()) {
            if (match.pathExists()) {
                return Optional.of(() -> {
                    rc.response().putHeader("allow", String.join(", ", match.allowedMethods()));
                    errors.send(rc, ErrorCode.METHOD_NOT_ALLOWED, method + " is not supported on this route.");
                });
            }
            return Optional.of(() -> errors.send(
                    rc, ErrorCode.NOT_FOUND, "No such route: " + method + " " + API_PREFIX + servicePath(rc) + "."));
        }
        ApiRoute route = match.route().get();
        if (route.scope() != null && !key.scopes().contains(route.scope())) {
            String credential = IdPrefix.API_KEY.matches(key.id()) ? "API key" : "access token";
            return Optional.of(() -> {
                rc.response()
                        .putHeader(
                                "WWW-Authenticate",
                                CHALLENGE + ", error=\"insufficient_scope\", scope=\"" + route.scope() + "\"");
                errors.send(
                        rc,
                        ErrorCode.INSUFFICIENT_SCOPE,
                        "This " + credential + " lacks the " + route.scope() + " scope.",
                        Map.of("required_scope", route.scope()));
            });
        }
        Optional<String> repeated = repeatedQueryParameter(rc.request().query());
        if (repeated.isPresent()) {
            return Optional.of(() -> errors.send(
                    rc,
                    ErrorCode.INVALID_REQUEST,
                    "The query parameter " + repeated.get() + " is given more than once; send each parameter once.",
                    Map.of("parameter", repeated.get())));
        }
        if (hasBody(rc) && !isJson(rc.request().getHeader("content-type"))) {
            return Optional.of(() ->
                    errors.send(rc, ErrorCode.UNSUPPORTED_MEDIA_TYPE, "The request body must be application/json."));
        }
        return Optional.empty();
    }

    private void rateLimited(RoutingContext rc, RateLimitStatus rate) {
        long retryAfter = Math.max(1, rate.resetEpochSeconds() - clock.instant().getEpochSecond());
        rc.response().putHeader("Retry-After", Long.toString(retryAfter));
        errors.send(
                rc,
                ErrorCode.RATE_LIMIT_EXCEEDED,
                "Too many requests this minute. Retry after " + retryAfter + " s.",
                Map.of("retry_after_seconds", retryAfter, "limit", rate.limit()));
    }

    private void allowanceSpent(RoutingContext rc, Credential key, Admission verdict) {
        var plan = verdict.entitlements();
        // Rounded up: a client that waits exactly this long must not come back just before reset_at.
        long retryAfter = Math.max(
                1, (Duration.between(clock.instant(), plan.period().end()).toMillis() + 999) / 1000);
        long limit = plan.apiRequestsLimit();
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("metric", "api_requests");
        details.put("mode", key.mode().wireName());
        details.put("plan", plan.plan());
        details.put("limit", limit);
        details.put("used", verdict.meteredUsed());
        details.put("reserved", 0);
        details.put("remaining", Math.max(0, limit - verdict.meteredUsed()));
        details.put("reset_at", plan.period().end().toString());
        details.put("upgrade_url", usage.upgradeUrl());
        details.put("retry_after_seconds", retryAfter);
        rc.response().putHeader("Retry-After", Long.toString(retryAfter));
        errors.send(
                rc,
                ErrorCode.USAGE_LIMIT_EXCEEDED,
                "This month's API request allowance is used up; it resets at "
                        + plan.period().end() + ".",
                details);
    }

    /**
     * Buffers the body (at most 1 MiB) before anything reaches a service, so an oversized request is
     * refused whole instead of arriving half-written.
     */
    private void readBodyAndForward(RoutingContext rc) {
        BoundedBody.read(rc, MAX_BODY_BYTES, body -> forward(rc, body), () -> tooLarge(rc));
    }

    private void forward(RoutingContext rc, Buffer body) {
        ApiRoute route = rc.get(ROUTE);
        Credential key = rc.get(KEY);
        Admission verdict = rc.get(ADMISSION);
        if (route.upstream() == Upstream.GATEWAY) {
            serveLocally(rc, key);
            return;
        }
        String jwt = isUsageRead(route)
                ? issuers.issuer()
                        .issue(
                                new InternalToken(key.workspaceId(), key.mode(), key.id(), key.scopes()),
                                Map.of(API_REQUESTS_USED_CLAIM, verdict.meteredUsed()))
                : tokens.tokenFor(key);
        proxy.forward(rc, route.upstream(), servicePath(rc), jwt, body, (status, headers) -> {
            if (!route.metered() || counts(status, headers)) {
                return Uni.createFrom().voidItem();
            }
            // Given back before the answer leaves: a usage read right after a free replay must not still count it.
            return admission
                    .refund(verdict)
                    .onFailure()
                    .invoke(failure -> LOG.warnf(
                            "request %s: refund of an uncounted request failed: %s",
                            rc.request().getHeader("x-request-id"), failure.toString()))
                    .onFailure()
                    .recoverWithNull();
        });
    }

    /** Records the request in the workspace's request log once its answer is complete, whatever it was. */
    private void logWhenAnswered(RoutingContext rc, Credential key) {
        Instant received = Timestamps.now(clock);
        long started = System.nanoTime();
        String requestId = rc.request().getHeader(RequestIds.HEADER);
        String method = rc.request().method().name();
        String path = rc.normalizedPath();
        rc.addEndHandler(ended -> {
            int durationMs = (int) Math.min(Integer.MAX_VALUE, (System.nanoTime() - started) / 1_000_000);
            logWriter.append(new RequestLogRepository.Entry(
                    key.workspaceId(),
                    new RequestLog(
                            requestId,
                            method,
                            path,
                            rc.response().getStatusCode(),
                            durationMs,
                            key.id(),
                            key.mode(),
                            received)));
        });
    }

    /** Routes the gateway answers itself; today only {@code GET /logs}. */
    private void serveLocally(RoutingContext rc, Credential key) {
        // Names case-insensitively, as the services read theirs (Vert.x's parameter map): LIMIT is limit everywhere.
        Map<String, String> query = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        rc.queryParams().forEach(parameter -> query.putIfAbsent(parameter.getKey(), parameter.getValue()));
        Uni.createFrom()
                .deferred(() -> logService.list(key.workspaceId(), key.mode(), query))
                .subscribe()
                .with(
                        list -> {
                            try {
                                rc.response()
                                        .setStatusCode(200)
                                        .putHeader("content-type", "application/json")
                                        .end(mapper.writeValueAsString(list));
                            } catch (JsonProcessingException e) {
                                fail(rc, e);
                            }
                        },
                        failure -> {
                            if (failure instanceof ApiException refusal) {
                                errors.send(rc, refusal.code(), refusal.getMessage(), refusal.details());
                            } else {
                                // A server error never counts toward the allowance (spec section 7 rule 3).
                                ApiRoute route = rc.get(ROUTE);
                                Uni<Void> refund = route.metered()
                                        ? admission.refund(rc.get(ADMISSION))
                                        : Uni.createFrom().voidItem();
                                refund.onFailure().recoverWithNull().subscribe().with(refunded -> fail(rc, failure));
                            }
                        });
    }

    /** Server errors, limit refusals, exact replays and cached reads never count toward the allowance. */
    private static boolean counts(int status, MultiMap headers) {
        if (status >= 500 || status == 429 || headers.contains(LimitRefusal.HEADER)) {
            return false;
        }
        return !"true".equalsIgnoreCase(headers.get("idempotency-replayed"))
                && !"hit".equalsIgnoreCase(headers.get(ServiceProxy.CACHE_HEADER));
    }

    private static boolean isUsageRead(ApiRoute route) {
        return route.template().equals("/usage");
    }

    private void tooLarge(RoutingContext rc) {
        // The rest of the upload is not wanted; closing after the answer stops the client from sending it.
        rc.response().putHeader("connection", "close");
        errors.send(rc, ErrorCode.PAYLOAD_TOO_LARGE, "The request body is larger than 1 MiB.");
        Admission verdict = rc.get(ADMISSION);
        ApiRoute route = rc.get(ROUTE);
        if (verdict != null && route != null && route.metered()) {
            // Refused before any service saw it: like a validation failure it would count, but the
            // body never arrived, so it is treated as not served.
            admission.refund(verdict).subscribe().with(ignored -> {}, failure -> {});
        }
    }

    private void fail(RoutingContext rc) {
        fail(rc, rc.failure());
    }

    private void fail(RoutingContext rc, Throwable failure) {
        LOG.errorf(failure, "request %s failed", rc.request().getHeader("x-request-id"));
        errors.send(rc, ErrorCode.INTERNAL_ERROR, "Something went wrong on our side.");
    }

    /**
     * For the gateway's public routes without an API credential (the OpenAPI document, the token endpoint): counts the
     * request in its address's window, which reports and never refuses (so they are always served), sets the rate-limit
     * headers, then runs {@code then}. If the window cannot be counted (database down), {@code then} runs without them.
     */
    public static void countAnonymously(RoutingContext rc, RequestAdmission admission, Runnable then) {
        admission
                .countAnonymousRequest(rc.request().remoteAddress().hostAddress())
                .subscribe()
                .with(
                        rate -> {
                            setRateLimitHeaders(rc, rate);
                            then.run();
                        },
                        failure -> {
                            LOG.warnf(
                                    "request %s: the rate window is unavailable (%s)",
                                    rc.request().getHeader("x-request-id"), failure);
                            then.run();
                        });
    }

    public static void setRateLimitHeaders(RoutingContext rc, RateLimitStatus status) {
        rc.response()
                .putHeader("X-RateLimit-Limit", Integer.toString(status.limit()))
                .putHeader("X-RateLimit-Remaining", Integer.toString(status.remaining()))
                .putHeader("X-RateLimit-Reset", Long.toString(status.resetEpochSeconds()));
    }

    /** The request path below {@code /api/v1}, normalized (no dot segments, no double slashes). */
    private static String servicePath(RoutingContext rc) {
        String path = rc.normalizedPath();
        return path.length() > API_PREFIX.length() ? path.substring(API_PREFIX.length()) : "";
    }

    /**
     * The first query parameter given more than once. Every parameter of the API is single-valued, and a service
     * that took the first of several values while a cache, proxy or firewall in front took the last would see
     * another request than they did (parameter pollution), so repeating one is {@code 400 invalid_request}.
     */
    static Optional<String> repeatedQueryParameter(String query) {
        if (query == null || query.isEmpty()) {
            return Optional.empty();
        }
        Set<String> seen = new HashSet<>();
        // As the services read a query (Vert.x): ';' separates parameters too, and names are matched ignoring case.
        for (String pair : query.split("[&;]")) {
            if (pair.isEmpty()) {
                continue;
            }
            String name = pair.split("=", 2)[0];
            try {
                name = URLDecoder.decode(name, StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                // Malformed percent-encoding: compared as sent; the service refuses the parameter itself.
            }
            if (!seen.add(name.toLowerCase(Locale.ROOT))) {
                return Optional.of(name);
            }
        }
        return Optional.empty();
    }

    private static boolean hasBody(RoutingContext rc) {
        HttpMethod method = rc.request().method();
        if (method == HttpMethod.GET || method == HttpMethod.HEAD) {
            return false;
        }
        String length = rc.request().getHeader("content-length");
        return rc.request().getHeader("transfer-encoding") != null
                || (length != null && !length.trim().equals("0"));
    }

    private static boolean isJson(String contentType) {
        if (contentType == null) {
            return false;
        }
        String type = contentType.split(";", 2)[0].trim().toLowerCase();
        return type.equals("application/json");
    }
}
