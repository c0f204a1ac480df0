package dev.herald.common.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.auth.Mode;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import java.time.temporal.ChronoUnit;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * posts-service (fault tolerance: see the package). accounts-service asks it how many accepted posts are still
 * pending for an account (spec: PATCH /accounts/{id} is refused while there are any); when posts-service cannot
 * answer, the PATCH fails with 503 rather than guessing.
 */
// A count from one index answers in milliseconds; 3 s leaves room for a loaded service.
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

    @CircuitBreaker(
            requestVolumeThreshold = 10,
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
