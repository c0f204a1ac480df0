package dev.herald.gateway.rest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.common.api.ErrorEnvelope;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.faulttolerance.exceptions.CircuitBreakerOpenException;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;
import org.junit.jupiter.api.Test;

/** The gateway's own resources answer a slow or failing service with 503 service_unavailable, not 500. */
class UpstreamFailureMappersTest {
    private final UpstreamFailureMappers mappers = new UpstreamFailureMappers();

    @Test
    void aTimedOutCallToAServiceIs503ServiceUnavailable() {
        Response response = mappers.faultTolerance(new TimeoutException("UsageClient#changeSubscription timed out"), null);
        assertThat(response.getStatus()).isEqualTo(503);
        ErrorEnvelope body = (ErrorEnvelope) response.getEntity();
        assertThat(body.error().code()).isEqualTo("service_unavailable");
        assertThat(body.error().details()).isEmpty();
        assertThat(body.requestId()).matches("^req_[a-f0-9]{24}$");
    }

    @Test
    void anOpenCircuitBreakerIs503Too() {
        assertThat(mappers.faultTolerance(new CircuitBreakerOpenException("open"), null).getStatus()).isEqualTo(503);
    }
}
