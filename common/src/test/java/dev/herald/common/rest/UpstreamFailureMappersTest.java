package dev.herald.common.rest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.common.api.ErrorEnvelope;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.faulttolerance.exceptions.CircuitBreakerOpenException;
import org.eclipse.microprofile.faulttolerance.exceptions.FaultToleranceException;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * Found by the security system tests on a loaded machine: {@code PUT /admin/v1/workspaces/{id}/plan} answered
 * {@code 500 internal_error} when usage-service did not answer within the client's timeout. Upstream trouble is
 * {@code 503 service_unavailable} (DESIGN section 3), which a caller retries.
 */
class UpstreamFailureMappersTest {

    @Test
    void aTimedOutOrShortCircuitedUsageServiceCallIs503NotA500() {
        for (FaultToleranceException failure : new FaultToleranceException[] {
            new TimeoutException("UsageClient#changeSubscription timed out"), new CircuitBreakerOpenException("open")
        }) {
            Response response = new UpstreamFailureMappers().faultTolerance(failure, null);
            assertThat(response.getStatus()).isEqualTo(503);
            ErrorEnvelope envelope = (ErrorEnvelope) response.getEntity();
            assertThat(envelope.error().code()).isEqualTo("service_unavailable");
            assertThat(envelope.error().message()).doesNotContain("UsageClient");
            assertThat(envelope.requestId()).startsWith("req_");
        }
    }
}
