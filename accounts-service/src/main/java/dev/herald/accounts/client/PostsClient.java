package dev.herald.accounts.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
 * Asks posts-service how many accepted posts are still pending for an account (spec: PATCH /accounts/{id}
 * is refused while there are any). When posts-service cannot answer, the PATCH fails with 503 rather than
 * guessing.
 */
@ApplicationScoped
public class PostsClient {
    static final String SERVICE = "posts-service";

    private final PostsServiceApi api;
    private final InternalBearer bearer;
    private final ObjectMapper mapper;

    public PostsClient(@RestClient PostsServiceApi api, InternalBearer bearer, ObjectMapper mapper) {
        this.api = api;
        this.bearer = bearer;
        this.mapper = mapper;
    }

    @Timeout(value = 3, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 2, delay = 100, retryOn = UpstreamUnavailable.class)
    @CircuitBreaker(
            requestVolumeThreshold = 10,
            failureRatio = 0.5,
            delay = 5,
            delayUnit = ChronoUnit.SECONDS,
            failOn = {UpstreamUnavailable.class, TimeoutException.class})
    public Uni<Long> pendingPosts(String workspaceId, Mode mode, String accountId) {
        return api.pendingPosts(bearer.of(workspaceId, mode), accountId)
                .onFailure()
                .transform(failure -> new UpstreamUnavailable(SERVICE, failure.toString()))
                .map(response -> {
                    if (response.getStatus() != 200) {
                        throw UpstreamResponses.refusal(mapper, response, SERVICE);
                    }
                    JsonNode count =
                            UpstreamResponses.data(mapper, response, SERVICE).get("pending_posts");
                    if (count == null || !count.isIntegralNumber() || count.asLong() < 0) {
                        throw new UpstreamUnavailable(SERVICE, "an answer without a pending_posts count");
                    }
                    return count.asLong();
                });
    }
}
