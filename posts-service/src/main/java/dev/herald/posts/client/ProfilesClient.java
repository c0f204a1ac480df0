package dev.herald.posts.client;

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
 * A pending post holds each profile of its targets, so the profile cannot be deleted until the post is final
 * or canceled (spec: DELETE /profiles/{id}). Both calls are idempotent per post.
 */
@ApplicationScoped
public class ProfilesClient {
    static final String SERVICE = "profiles-service";

    private final ProfilesServiceApi api;
    private final InternalBearer bearer;
    private final ObjectMapper mapper;

    public ProfilesClient(@RestClient ProfilesServiceApi api, InternalBearer bearer, ObjectMapper mapper) {
        this.api = api;
        this.bearer = bearer;
        this.mapper = mapper;
    }

    /** True when the profile now holds the post; false when the profile no longer exists. */
    @Timeout(value = 3, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 2, delay = 100, retryOn = UpstreamUnavailable.class)
    @CircuitBreaker(
            requestVolumeThreshold = 20,
            failureRatio = 0.5,
            delay = 5,
            delayUnit = ChronoUnit.SECONDS,
            failOn = {UpstreamUnavailable.class, TimeoutException.class})
    public Uni<Boolean> hold(String workspaceId, Mode mode, String profileId, String postId) {
        return api.hold(bearer.of(workspaceId, mode), profileId, postId)
                .onFailure()
                .transform(failure -> new UpstreamUnavailable(SERVICE, failure.toString()))
                .map(response -> switch (response.getStatus()) {
                    case 200, 204 -> true;
                    case 404 -> false;
                    default -> throw UpstreamResponses.refusal(mapper, response, SERVICE);
                });
    }

    /** Drops the post's hold; a hold that is not there (or a profile that is gone) is fine. */
    @Timeout(value = 3, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 3, delay = 200, retryOn = UpstreamUnavailable.class)
    public Uni<Void> release(String workspaceId, Mode mode, String profileId, String postId) {
        return api.release(bearer.of(workspaceId, mode), profileId, postId)
                .onFailure()
                .transform(failure -> new UpstreamUnavailable(SERVICE, failure.toString()))
                .map(response -> switch (response.getStatus()) {
                    case 200, 204, 404 -> null;
                    default -> throw UpstreamResponses.refusal(mapper, response, SERVICE);
                });
    }
}
