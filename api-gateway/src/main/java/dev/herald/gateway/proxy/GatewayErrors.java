package dev.herald.gateway.proxy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.api.ApiError;
import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.api.ErrorEnvelope;
import dev.herald.common.rest.RequestIds;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import org.jboss.logging.Logger;

/** Writes the error envelope from the gateway's own Vert.x handlers (outside JAX-RS). */
@ApplicationScoped
public class GatewayErrors {
    private static final Logger LOG = Logger.getLogger(GatewayErrors.class);

    private final ObjectMapper mapper;

    public GatewayErrors(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    /** A refusal with its headers ({@code Retry-After}, {@code Allow}, {@code WWW-Authenticate}). */
    public void send(RoutingContext rc, ApiException refusal) {
        refusal.headers().forEach(rc.response()::putHeader);
        send(rc, refusal.code(), refusal.getMessage(), refusal.details());
    }

    /** {@code 500 internal_error} for a failure nothing else answered; the cause is logged, never shown. */
    public void internalError(RoutingContext rc, Throwable failure) {
        LOG.errorf(failure, "request %s failed", rc.request().getHeader(RequestIds.HEADER));
        send(rc, ErrorCode.INTERNAL_ERROR, "Something went wrong on our side.");
    }

    public void send(RoutingContext rc, ErrorCode code, String message) {
        send(rc, code, message, Map.of());
    }

    public void send(RoutingContext rc, ErrorCode code, String message, Map<String, Object> details) {
        if (rc.response().headWritten()) {
            rc.response().reset();
            return;
        }
        String requestId = rc.request().getHeader(RequestIds.HEADER);
        String body;
        try {
            body = mapper.writeValueAsString(new ErrorEnvelope(new ApiError(code.code(), message, details), requestId));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        rc.response()
                .setStatusCode(code.httpStatus())
                .putHeader("content-type", "application/json")
                .end(body);
    }
}
