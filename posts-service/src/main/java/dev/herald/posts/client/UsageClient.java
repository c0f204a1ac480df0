package dev.herald.posts.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.auth.Mode;
import dev.herald.common.client.InternalBearer;
import dev.herald.common.client.UpstreamResponses;
import dev.herald.common.client.UpstreamUnavailable;
import dev.herald.common.wire.ReservationBatch;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.temporal.ChronoUnit;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * Publication and comment-request reservations, owned by usage-service, which checks the allowance and live account capacity
 * atomically (spec section 8). Both calls are idempotent per reservation id, so a retry never charges twice.
 */
@ApplicationScoped
public class UsageClient {
    static final String SERVICE = "usage-service";

    private final UsageServiceApi api;
    private final InternalBearer bearer;
    private final ObjectMapper mapper;

    public UsageClient(@RestClient UsageServiceApi api, InternalBearer bearer, ObjectMapper mapper) {
        this.api = api;
        this.bearer = bearer;
        this.mapper = mapper;
    }

    /**
     * Reserves every item or none. Refusals ({@code 429 usage_limit_exceeded}, {@code 409
     * account_capacity_exceeded}) are passed on with usage-service's details and Retry-After.
     */
    @Timeout(value = 5, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 2, delay = 100, retryOn = UpstreamUnavailable.class)
    @CircuitBreaker(
            requestVolumeThreshold = 20,
            failureRatio = 0.5,
            delay = 5,
            delayUnit = ChronoUnit.SECONDS,
            failOn = {UpstreamUnavailable.class, TimeoutException.class})
    public Uni<Void> reserve(String workspaceId, Mode mode, ReservationBatch batch) {
        String body;
        try {
            body = mapper.writeValueAsString(batch);
        } catch (JsonProcessingException e) {
            return Uni.createFrom().failure(e);
        }
        return api.reserveBatch(bearer.of(workspaceId, mode), body)
                .onFailure()
                .transform(failure -> new UpstreamUnavailable(SERVICE, failure.toString()))
                .map(response -> {
                    if (response.getStatus() == 200 || response.getStatus() == 201) {
                        return null;
                    }
                    throw UpstreamResponses.refusal(
                            mapper,
                            response,
                            SERVICE,
                            ErrorCode.USAGE_LIMIT_EXCEEDED,
                            ErrorCode.ACCOUNT_CAPACITY_EXCEEDED);
                });
    }

    /** Gives a reservation back; one already released (or never made) is fine. */
    @Timeout(value = 5, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 3, delay = 200, retryOn = UpstreamUnavailable.class)
    public Uni<Void> release(String workspaceId, Mode mode, String reservationId) {
        return api.release(bearer.of(workspaceId, mode), reservationId, "{}")
                .onFailure()
                .transform(failure -> new UpstreamUnavailable(SERVICE, failure.toString()))
                .map(response -> switch (response.getStatus()) {
                    case 200, 404 -> null;
                    default -> throw UpstreamResponses.refusal(mapper, response, SERVICE);
                });
    }

    /** Counts a reservation as used (a comment request whose platform call succeeded); a consumed one is fine. */
    @Timeout(value = 5, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 3, delay = 200, retryOn = UpstreamUnavailable.class)
    public Uni<Void> consume(String workspaceId, Mode mode, String reservationId) {
        return api.consume(bearer.of(workspaceId, mode), reservationId, "{}")
                .onFailure()
                .transform(failure -> new UpstreamUnavailable(SERVICE, failure.toString()))
                .map(response -> {
                    if (response.getStatus() == 200) {
                        return null;
                    }
                    throw UpstreamResponses.refusal(mapper, response, SERVICE);
                });
    }
}
