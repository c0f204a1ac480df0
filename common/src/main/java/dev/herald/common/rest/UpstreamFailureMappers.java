package dev.herald.common.rest;

import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.faulttolerance.exceptions.FaultToleranceException;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * A call to another service (a REST client behind {@code @Timeout}/{@code @CircuitBreaker}) that timed out or met an
 * open circuit breaker: {@code 503 service_unavailable}, which a caller retries, never a {@code 500 internal_error}
 * from {@link ApiExceptionMappers}' catch-all. It lives here, not in each service that has REST clients, because it
 * is discovered with the other mappers of this bean archive by every service; in one without fault tolerance no
 * {@link FaultToleranceException} is ever thrown, and common carries the fault-tolerance API (not the extension) so
 * that the mapped type is on every service's class path.
 */
public class UpstreamFailureMappers {
    private static final Logger LOG = Logger.getLogger(UpstreamFailureMappers.class);
    private final ApiExceptionMappers envelopes = new ApiExceptionMappers();

    @ServerExceptionMapper
    public Response faultTolerance(FaultToleranceException e, HttpHeaders headers) {
        LOG.warnf("an internal call failed: %s", e.toString());
        return envelopes.apiException(
                new ApiException(
                        ErrorCode.SERVICE_UNAVAILABLE,
                        "A service this request needs is unavailable; try again shortly."),
                headers);
    }
}
