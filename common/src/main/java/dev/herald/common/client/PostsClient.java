package dev.herald.common.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.auth.Mode;
import dev.herald.common.time.Timestamps;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * posts-service (fault tolerance: see the package). accounts-service fences an account there before moving it to
 * another profile (decision 224), learning how many accepted posts are still pending for it (spec: PATCH
 * /accounts/{id} is refused while there are any), and lifts the fence once the move committed or failed; when
 * posts-service cannot answer the fence, the PATCH fails with 503 rather than guessing.
 */
@Timeout(value = 3, unit = ChronoUnit.SECONDS)
@Retry(maxRetries = 2, delay = 100, retryOn = UpstreamUnavailable.class)
@ApplicationScoped
public class PostsClient {
    static final String SERVICE = "posts-service";

    private final PostsServiceApi api;
    private final InternalBearer bearer;
    private final ObjectMapper mapper;

    /** {@code api}: see the package on why an {@link Instance}. */
    public PostsClient(@RestClient Instance<PostsServiceApi> api, InternalBearer bearer, ObjectMapper mapper) {
        this.api = api.get();
        this.bearer = bearer;
        this.mapper = mapper;
    }

    /** A fence on an account, the posts pending for it when it was put up, and when it ends unless lifted before. */
    public record AccountFence(String id, long pendingPosts, Instant expiresAt) {}

    @CircuitBreaker(
            requestVolumeThreshold = 10,
            failOn = {UpstreamUnavailable.class, TimeoutException.class})
    public Uni<AccountFence> fence(String workspaceId, Mode mode, String accountId) {
        // A retried call after a lost answer leaves a fence nobody lifts: it expires (posts-service, 30 s).
        return api.fence(bearer.of(workspaceId, mode), accountId)
                .onFailure()
                .transform(failure -> new UpstreamUnavailable(SERVICE, failure.toString()))
                .map(response -> {
                    if (response.getStatus() != 200) {
                        throw UpstreamResponses.refusal(mapper, response, SERVICE);
                    }
                    JsonNode data = UpstreamResponses.data(mapper, response, SERVICE);
                    JsonNode id = data.get("fence_id");
                    JsonNode count = data.get("pending_posts");
                    Optional<Instant> expiresAt = Optional.ofNullable(data.get("expires_at"))
                            .filter(JsonNode::isTextual)
                            .flatMap(expiry -> Timestamps.parseRfc3339(expiry.asText()));
                    if (id == null
                            || !id.isTextual()
                            || count == null
                            || !count.isIntegralNumber()
                            || count.asLong() < 0
                            || expiresAt.isEmpty()) {
                        throw new UpstreamUnavailable(
                                SERVICE, "a fence without its id, pending_posts count or expires_at");
                    }
                    return new AccountFence(id.asText(), count.asLong(), expiresAt.get());
                });
    }

    /** Lifts the fence (again is a no-op). */
    public Uni<Void> lift(String workspaceId, Mode mode, String accountId, String fenceId) {
        return api.lift(bearer.of(workspaceId, mode), accountId, fenceId)
                .onFailure()
                .transform(failure -> new UpstreamUnavailable(SERVICE, failure.toString()))
                .map(response -> {
                    if (response.getStatus() != 204) {
                        throw UpstreamResponses.refusal(mapper, response, SERVICE);
                    }
                    return null;
                });
    }
}
