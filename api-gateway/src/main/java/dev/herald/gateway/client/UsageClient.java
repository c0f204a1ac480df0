package dev.herald.gateway.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.auth.Mode;
import dev.herald.common.client.InternalBearer;
import dev.herald.common.wire.Entitlements;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;
import java.time.temporal.ChronoUnit;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * The gateway's calls to usage-service, each bounded in time, retried on transient failure and cut off by a
 * circuit breaker while the service is down, so a usage-service outage never stalls the public API.
 */
@ApplicationScoped
public class UsageClient {
    private final UsageServiceApi api;
    private final InternalBearer bearer;
    private final ObjectMapper mapper;

    public UsageClient(@RestClient UsageServiceApi api, InternalBearer bearer, ObjectMapper mapper) {
        this.api = api;
        this.bearer = bearer;
        this.mapper = mapper;
    }

    @Timeout(value = 2, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 2, delay = 50, retryOn = UsageServiceUnavailable.class)
    @CircuitBreaker(requestVolumeThreshold = 10, failureRatio = 0.5, delay = 5, delayUnit = ChronoUnit.SECONDS)
    public Uni<Entitlements> entitlements(String workspaceId, Mode mode) {
        return api.entitlements(bearer.of(workspaceId, mode))
                .onFailure()
                .transform(UsageServiceUnavailable::new)
                .map(response -> {
                    if (response.getStatus() != 200) {
                        throw new UsageServiceUnavailable(
                                new IllegalStateException("entitlements answered " + response.getStatus()));
                    }
                    return read(response, Entitlements.class);
                });
    }

    /**
     * Changes a workspace+mode's plan (admin API). usage-service's answer, success or validation error, is
     * passed on as it is.
     */
    @Timeout(value = 5, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 2, delay = 100, retryOn = UsageServiceUnavailable.class)
    public Uni<Response> changeSubscription(String workspaceId, Mode mode, JsonNode body) {
        return api.changeSubscription(bearer.of(workspaceId, mode), body.toString())
                .onFailure()
                .transform(UsageServiceUnavailable::new)
                .map(response -> {
                    if (response.getStatus() >= 500) {
                        throw new UsageServiceUnavailable(
                                new IllegalStateException("subscription change answered " + response.getStatus()));
                    }
                    return response;
                });
    }

    private <T> T read(Response response, Class<T> type) {
        try {
            JsonNode envelope = mapper.readTree(response.readEntity(String.class));
            return mapper.treeToValue(envelope.get("data"), type);
        } catch (Exception e) {
            throw new UsageServiceUnavailable(e);
        }
    }

    /** usage-service could not be reached or answered nonsense. */
    public static class UsageServiceUnavailable extends RuntimeException {
        public UsageServiceUnavailable(Throwable cause) {
            super("usage-service is unavailable: " + cause.getMessage(), cause);
        }
    }
}
