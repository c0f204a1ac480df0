package dev.herald.gateway.proxy;

import dev.herald.common.api.ErrorCode;
import dev.herald.common.api.LimitRefusal;
import dev.herald.common.auth.InternalToken;
import dev.herald.common.auth.InternalTokens;
import dev.herald.gateway.routing.ApiRoute;
import dev.herald.gateway.routing.RouteCatalog;
import dev.herald.gateway.routing.Upstream;
import dev.herald.gateway.service.Credential;
import dev.herald.gateway.service.RequestAdmission;
import io.smallrye.mutiny.Uni;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * The step after admission: reads the body (at most 1 MiB; a batch of posts more, {@link PostBatchRoute}) and forwards
 * the request to the service that owns its route, with an internal token in place of the caller's credential, or to the
 * gateway's own route; a metered request whose answer does not count (spec section 7) gets its unit back before the
 * answer leaves.
 */
@ApplicationScoped
class ApiForwarding {
    static final int MAX_BODY_BYTES = 1024 * 1024;
    private static final Logger LOG = Logger.getLogger(ApiForwarding.class);
    /** The one claim GET /usage needs from the edge: the month's API requests, this one included. */
    private static final String API_REQUESTS_USED_CLAIM = "api_requests_used";

    private final ServiceProxy proxy;
    private final InternalTokenCache tokens;
    private final InternalTokens issuers;
    private final RequestAdmission admission;
    private final LogsRoute logs;
    private final PostBatchRoute batch;
    private final GatewayErrors errors;

    ApiForwarding(
            ServiceProxy proxy,
            InternalTokenCache tokens,
            InternalTokens issuers,
            RequestAdmission admission,
            LogsRoute logs,
            PostBatchRoute batch,
            GatewayErrors errors) {
        this.proxy = proxy;
        this.tokens = tokens;
        this.issuers = issuers;
        this.admission = admission;
        this.logs = logs;
        this.batch = batch;
        this.errors = errors;
    }

    /**
     * Buffers the body (at most 1 MiB, or a batch's bound) before anything reaches a service, so an oversized request is
     * refused whole instead of arriving half-written.
     */
    void readBodyAndForward(RoutingContext rc) {
        int maxBytes = batch.serves(AdmittedRequest.of(rc).route()) ? batch.maxBodyBytes() : MAX_BODY_BYTES;
        BoundedBody.read(rc, maxBytes, body -> forward(rc, body), () -> tooLarge(rc, maxBytes));
    }

    private void forward(RoutingContext rc, Buffer body) {
        AdmittedRequest admitted = AdmittedRequest.of(rc);
        ApiRoute route = admitted.route();
        Credential key = admitted.key();
        if (batch.serves(route)) {
            batch.serve(rc, admitted, body);
            return;
        }
        if (route.upstream() == Upstream.GATEWAY) {
            logs.serve(rc, admitted);
            return;
        }
        String jwt = isUsageRead(route)
                ? issuers.issuer()
                        .issue(
                                new InternalToken(key.workspaceId(), key.mode(), key.id(), key.scopes()),
                                Map.of(
                                        API_REQUESTS_USED_CLAIM,
                                        admitted.verdict().meteredUsed()))
                : tokens.tokenFor(key);
        String servicePath = RouteCatalog.servicePath(rc.normalizedPath());
        proxy.forward(rc, route.upstream(), servicePath, jwt, body, (status, headers) -> {
            if (!route.metered() || counts(status, headers)) {
                return Uni.createFrom().voidItem();
            }
            // Given back before the answer leaves: a usage read right after a free replay must not still count it.
            return admission
                    .refund(admitted.verdict())
                    .onFailure()
                    .invoke(failure -> LOG.warnf(
                            "request %s: refund of an uncounted request failed: %s",
                            rc.request().getHeader("x-request-id"), failure.toString()))
                    .onFailure()
                    .recoverWithNull();
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

    private void tooLarge(RoutingContext rc, int maxBytes) {
        // The rest of the upload is not wanted; closing after the answer stops the client from sending it.
        rc.response().putHeader("connection", "close");
        errors.send(
                rc,
                ErrorCode.PAYLOAD_TOO_LARGE,
                "The request body is larger than "
                        + (maxBytes % MAX_BODY_BYTES == 0 ? maxBytes / MAX_BODY_BYTES + " MiB" : maxBytes + " bytes")
                        + ".");
        AdmittedRequest admitted = AdmittedRequest.of(rc);
        if (admitted != null && admitted.route().metered()) {
            // Refused before any service saw it: like a validation failure it would count, but the
            // body never arrived, so it is treated as not served.
            admission.refund(admitted.verdict()).subscribe().with(ignored -> {}, failure -> {});
        }
    }
}
