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
 * A call to another service that timed out or met an open circuit breaker: {@code 503}, never a 500. The proxied
 * public routes answer 503 on their own ({@code ServiceProxy}); this covers the gateway's own resources that call
 * a service through a fault-tolerant client, such as the admin API's plan change (usage-service, 5 s timeout),
 * which answered {@code 500 internal_error} when usage-service was slow (found by ContractFuzzIT's seeding on a
 * loaded machine).
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
