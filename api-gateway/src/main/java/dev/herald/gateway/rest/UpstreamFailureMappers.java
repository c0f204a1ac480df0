package dev.herald.gateway.rest;

import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.rest.ApiExceptionMappers;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.faulttolerance.exceptions.FaultToleranceException;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * The admin API's calls to usage-service (plans, entitlements) that time out or meet an open circuit breaker:
 * {@code 503 service_unavailable}, retryable, never a {@code 500 internal_error}.
 */
public class UpstreamFailureMappers {
    private static final Logger LOG = Logger.getLogger(UpstreamFailureMappers.class);
    private final ApiExceptionMappers envelopes = new ApiExceptionMappers();

    @ServerExceptionMapper
    public Response faultTolerance(FaultToleranceException e, HttpHeaders headers) {
        LOG.warnf("an internal call failed: %s", e.toString());
        return envelopes.apiException(new ApiException(ErrorCode.SERVICE_UNAVAILABLE,
                "A service this request needs is unavailable; try again shortly."), headers);
    }
}
