package dev.herald.accounts.client;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.auth.Mode;
import dev.herald.common.client.InternalBearer;
import dev.herald.common.client.UpstreamResponses;
import dev.herald.common.client.UpstreamUnavailable;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.temporal.ChronoUnit;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * Connected-account slots and the new-connection allowance, owned by usage-service, which checks both
 * atomically (spec section 8). Both calls are idempotent per account id, so a retry never charges twice.
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
     * Takes a slot for the account, and one unit of the month's new connections when {@code newConnection}.
     * Refusals ({@code 409 account_limit_reached}, {@code 429 usage_limit_exceeded}) are passed on with
     * usage-service's details. A slot the account already holds is kept and charges nothing.
     */
    @Timeout(value = 3, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 2, delay = 100, retryOn = UpstreamUnavailable.class)
    @CircuitBreaker(
            requestVolumeThreshold = 10,
            failureRatio = 0.5,
            delay = 5,
            delayUnit = ChronoUnit.SECONDS,
            failOn = {UpstreamUnavailable.class, TimeoutException.class})
    public Uni<Void> connect(String workspaceId, Mode mode, String accountId, boolean newConnection) {
        ObjectNode body = mapper.createObjectNode().put("account_id", accountId).put("new_connection", newConnection);
        return api.connect(bearer.of(workspaceId, mode), body.toString())
                .onFailure()
                .transform(failure -> new UpstreamUnavailable(SERVICE, failure.toString()))
                .map(response -> {
                    if (response.getStatus() == 200 || response.getStatus() == 201) {
                        return null;
                    }
                    throw UpstreamResponses.refusal(
                            mapper, response, SERVICE, ErrorCode.ACCOUNT_LIMIT_REACHED, ErrorCode.USAGE_LIMIT_EXCEEDED);
                });
    }

    /** Frees the account's slot; freeing a slot it does not hold is fine. */
    @Timeout(value = 3, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 3, delay = 200, retryOn = UpstreamUnavailable.class)
    public Uni<Void> disconnect(String workspaceId, Mode mode, String accountId) {
        return api.disconnect(bearer.of(workspaceId, mode), accountId)
                .onFailure()
                .transform(failure -> new UpstreamUnavailable(SERVICE, failure.toString()))
                .map(response -> {
                    if (response.getStatus() == 200 || response.getStatus() == 204) {
                        return null;
                    }
                    throw UpstreamResponses.refusal(mapper, response, SERVICE);
                });
    }
}
