package dev.herald.gateway.proxy;

import static dev.herald.gateway.routing.RouteCatalog.API_PREFIX;

import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.gateway.routing.RouteCatalog;
import dev.herald.gateway.routing.RouteMatch;
import dev.herald.gateway.service.CallerAuthenticator;
import dev.herald.gateway.service.Credential;
import dev.herald.gateway.service.RequestAdmission;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * The first step of every {@code /api/v1} request, everything that can refuse it before its body is read:
 * authenticate the credential, find the route and check it ({@link RouteRefusals}), count the request in its rate
 * window and, when metered, in the month's allowance ({@link RequestAdmission}). A refused request is answered here
 * ({@link AdmissionRefusals}); an admitted one goes on with its {@link AdmittedRequest}.
 */
@ApplicationScoped
class ApiAdmission {
    private static final Logger LOG = Logger.getLogger(ApiAdmission.class);

    private final CallerAuthenticator authenticator;
    private final RequestAdmission admission;
    private final RouteCatalog catalog;
    private final AdmissionRefusals refusals;
    private final RateLimitHeaders rateLimitHeaders;
    private final RequestLogRecorder requestLog;
    private final GatewayErrors errors;

    ApiAdmission(
            CallerAuthenticator authenticator,
            RequestAdmission admission,
            RouteCatalog catalog,
            AdmissionRefusals refusals,
            RateLimitHeaders rateLimitHeaders,
            RequestLogRecorder requestLog,
            GatewayErrors errors) {
        this.authenticator = authenticator;
        this.admission = admission;
        this.catalog = catalog;
        this.refusals = refusals;
        this.rateLimitHeaders = rateLimitHeaders;
        this.requestLog = requestLog;
        this.errors = errors;
    }

    void admit(RoutingContext rc) {
        admit(rc, false);
    }

    /**
     * The same steps for {@code /mcp}, against its own routes ({@link RouteCatalog#matchMcp}): a request without a valid
     * credential never reaches mcp-server.
     */
    void admitMcp(RoutingContext rc) {
        admit(rc, true);
    }

    private void admit(RoutingContext rc, boolean mcp) {
        // Hold the body back until the caller is known: nobody gets to upload to us without a key.
        rc.request().pause();
        // Every answer is one tenant's, and some hold a secret shown once (a webhook's, a connect link): no cache keeps
        // them.
        rc.response().putHeader("Cache-Control", "no-store");
        String authorization = rc.request().getHeader("authorization");
        Uni<Boolean> admitted = rc.request().headers().getAll("authorization").size() > 1
                ? refuseWithoutCredential(rc, refusals.ambiguousCredentials())
                : authenticator
                        .authenticate(authorization)
                        .flatMap(key -> key.isPresent()
                                ? admitKeyRequest(rc, key.get(), mcp)
                                : refuseWithoutCredential(
                                        rc,
                                        refusals.authenticationFailed(
                                                CallerAuthenticator.bearerToken(authorization) != null)));
        admitted.subscribe()
                .with(
                        goOn -> {
                            if (goOn) {
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

    /** A request without one valid credential counts in its address's window, for truthful headers, then is refused. */
    private Uni<Boolean> refuseWithoutCredential(RoutingContext rc, ApiException refusal) {
        return rateLimitHeaders.countAnonymous(rc).map(rate -> {
            errors.send(rc, refusal);
            return false;
        });
    }

    /**
     * Refusals for the route itself are decided first but answered after the rate window counted the request: they
     * are rate limited, never metered.
     */
    private Uni<Boolean> admitKeyRequest(RoutingContext rc, Credential key, boolean mcp) {
        String method = rc.request().method().name();
        requestLog.logWhenAnswered(rc, key);
        String servicePath = mcp ? RouteCatalog.MCP_PATH : RouteCatalog.servicePath(rc.normalizedPath());
        RouteMatch match = mcp ? catalog.matchMcp(method) : catalog.match(method, servicePath);
        match.route()
                .ifPresent(route -> MetricsRouteNames.name(rc, mcp ? route.template() : API_PREFIX + route.template()));
        Optional<ApiException> routeRefusal = RouteRefusals.of(rc.request(), servicePath, match, key);
        boolean metered = routeRefusal.isEmpty() && match.route().get().metered();
        return admission.admitKeyRequest(key.workspaceId(), key.mode(), metered).map(verdict -> {
            rateLimitHeaders.set(rc, verdict.rateLimit());
            Optional<ApiException> refusal = switch (verdict.outcome()) {
                case RATE_LIMITED -> Optional.of(refusals.rateLimited(verdict.rateLimit()));
                case ALLOWANCE_SPENT -> Optional.of(refusals.allowanceSpent(key, verdict));
                case ADMITTED -> routeRefusal;
            };
            if (refusal.isPresent()) {
                errors.send(rc, refusal.get());
                return false;
            }
            new AdmittedRequest(match.route().get(), key, verdict).attachTo(rc);
            return true;
        });
    }
}
