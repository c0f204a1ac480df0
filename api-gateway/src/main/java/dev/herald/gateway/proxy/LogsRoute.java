package dev.herald.gateway.proxy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.api.ApiException;
import dev.herald.gateway.service.RequestAdmission;
import dev.herald.gateway.service.RequestLogService;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code GET /api/v1/logs}, the one route the gateway answers itself (the catalog's {@code Upstream.GATEWAY}): the
 * workspace's request logs, read after admission like every other route.
 */
@ApplicationScoped
class LogsRoute {
    private final RequestLogService logService;
    private final RequestAdmission admission;
    private final GatewayErrors errors;
    private final ObjectMapper mapper;

    LogsRoute(RequestLogService logService, RequestAdmission admission, GatewayErrors errors, ObjectMapper mapper) {
        this.logService = logService;
        this.admission = admission;
        this.errors = errors;
        this.mapper = mapper;
    }

    void serve(RoutingContext rc, AdmittedRequest admitted) {
        // Names case-insensitively, as the services read theirs (Vert.x's parameter map): LIMIT is limit everywhere.
        Map<String, String> query = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        rc.queryParams().forEach(parameter -> query.putIfAbsent(parameter.getKey(), parameter.getValue()));
        Uni.createFrom()
                .deferred(() -> logService.list(
                        admitted.key().workspaceId(), admitted.key().mode(), query))
                .subscribe()
                .with(
                        list -> {
                            try {
                                rc.response()
                                        .setStatusCode(200)
                                        .putHeader("content-type", "application/json")
                                        .end(mapper.writeValueAsString(list));
                            } catch (JsonProcessingException e) {
                                errors.internalError(rc, e);
                            }
                        },
                        failure -> {
                            if (failure instanceof ApiException refusal) {
                                errors.send(rc, refusal);
                            } else {
                                // A server error never counts toward the allowance (spec section 7 rule 3).
                                Uni<Void> refund = admitted.route().metered()
                                        ? admission.refund(admitted.verdict())
                                        : Uni.createFrom().voidItem();
                                refund.onFailure()
                                        .recoverWithNull()
                                        .subscribe()
                                        .with(refunded -> errors.internalError(rc, failure));
                            }
                        });
    }
}
