package dev.herald.common.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.auth.Mode;
import dev.herald.common.wire.PostQueue;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.ws.rs.core.Response;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * profiles-service, the owner of profiles (fault tolerance: see the package). What belongs to a profile holds it:
 * profiles-service refuses to delete a profile while any hold exists (its {@code profile_holds}). An account assigned
 * to a profile holds it (accounts-service); so does a pending post, until it is final or canceled (posts-service;
 * spec: DELETE /profiles/{id}). Holding also proves the profile exists in the caller's workspace and mode, under the
 * profile's row lock, so an assignment and a deletion cannot cross. Holds and releases are idempotent per holder.
 */
// One row read or written under the profile's lock; 3 s leaves room for a loaded service.
@Timeout(value = 3, unit = ChronoUnit.SECONDS)
@Retry(maxRetries = 2, delay = 100, retryOn = UpstreamUnavailable.class)
@ApplicationScoped
public class ProfilesClient {
    static final String SERVICE = "profiles-service";
    private static final String ACCOUNTS = "accounts";
    private static final String PENDING_POSTS = "pending_posts";

    private final ProfilesServiceApi api;
    private final InternalBearer bearer;
    private final ObjectMapper mapper;

    /** {@code api}: see the package on why an {@link Instance}. */
    public ProfilesClient(@RestClient Instance<ProfilesServiceApi> api, InternalBearer bearer, ObjectMapper mapper) {
        this.api = api.get();
        this.bearer = bearer;
        this.mapper = mapper;
    }

    /** Whether the profile exists in this workspace and mode (a connect session is created for one). */
    @CircuitBreaker(
            requestVolumeThreshold = 10,
            failOn = {UpstreamUnavailable.class, TimeoutException.class})
    public Uni<Boolean> exists(String workspaceId, Mode mode, String profileId) {
        return api.get(bearer.of(workspaceId, mode), profileId)
                .onFailure()
                .transform(failure -> new UpstreamUnavailable(SERVICE, failure.toString()))
                .map(response -> switch (response.getStatus()) {
                    case 200 -> true;
                    case 404 -> false;
                    default -> throw UpstreamResponses.refusal(mapper, response, SERVICE);
                });
    }

    /**
     * The profile's posting queue (a post's {@code "scheduled_at": "next_slot"} takes its next free slot); empty when
     * the profile has none, or is not in this workspace and mode.
     */
    @CircuitBreaker(
            requestVolumeThreshold = 10,
            failOn = {UpstreamUnavailable.class, TimeoutException.class})
    public Uni<Optional<PostQueue>> queue(String workspaceId, Mode mode, String profileId) {
        return api.queue(bearer.of(workspaceId, mode), profileId)
                .onFailure()
                .transform(failure -> new UpstreamUnavailable(SERVICE, failure.toString()))
                .map(response -> switch (response.getStatus()) {
                    case 200 -> {
                        try {
                            yield Optional.of(mapper.treeToValue(
                                    UpstreamResponses.data(mapper, response, SERVICE), PostQueue.class));
                        } catch (JsonProcessingException | RuntimeException e) {
                            throw new UpstreamUnavailable(SERVICE, "an unreadable queue: " + e.getMessage());
                        }
                    }
                    case 404 -> Optional.empty();
                    default -> throw UpstreamResponses.refusal(mapper, response, SERVICE);
                });
    }

    /** True when the profile exists in this workspace and mode and now holds the account; false when it does not. */
    @CircuitBreaker(
            requestVolumeThreshold = 10,
            failOn = {UpstreamUnavailable.class, TimeoutException.class})
    public Uni<Boolean> holdForAccount(String workspaceId, Mode mode, String profileId, String accountId) {
        return held(api.hold(bearer.of(workspaceId, mode), profileId, ACCOUNTS, accountId));
    }

    /** Drops the account's hold on the profile; a hold that is not there (or a profile that is gone) is fine. */
    @Retry(maxRetries = 3, delay = 200, retryOn = UpstreamUnavailable.class)
    public Uni<Void> releaseForAccount(String workspaceId, Mode mode, String profileId, String accountId) {
        return released(api.release(bearer.of(workspaceId, mode), profileId, ACCOUNTS, accountId));
    }

    /** True when the profile now holds the pending post; false when the profile no longer exists. */
    @CircuitBreaker(
            requestVolumeThreshold = 10,
            failOn = {UpstreamUnavailable.class, TimeoutException.class})
    public Uni<Boolean> holdForPendingPost(String workspaceId, Mode mode, String profileId, String postId) {
        return held(api.hold(bearer.of(workspaceId, mode), profileId, PENDING_POSTS, postId));
    }

    /** Drops the post's hold; a hold that is not there (or a profile that is gone) is fine. */
    @Retry(maxRetries = 3, delay = 200, retryOn = UpstreamUnavailable.class)
    public Uni<Void> releaseForPendingPost(String workspaceId, Mode mode, String profileId, String postId) {
        return released(api.release(bearer.of(workspaceId, mode), profileId, PENDING_POSTS, postId));
    }

    private Uni<Boolean> held(Uni<Response> call) {
        return call.onFailure()
                .transform(failure -> new UpstreamUnavailable(SERVICE, failure.toString()))
                .map(response -> switch (response.getStatus()) {
                    case 200, 204 -> true;
                    case 404 -> false;
                    default -> throw UpstreamResponses.refusal(mapper, response, SERVICE);
                });
    }

    private Uni<Void> released(Uni<Response> call) {
        return call.onFailure()
                .transform(failure -> new UpstreamUnavailable(SERVICE, failure.toString()))
                .map(response -> switch (response.getStatus()) {
                    case 200, 204, 404 -> null;
                    default -> throw UpstreamResponses.refusal(mapper, response, SERVICE);
                });
    }
}
