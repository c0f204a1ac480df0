package dev.herald.accounts.client;

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
 * profiles-service, the owner of profiles. An account assigned to a profile holds it: profiles-service refuses to delete a profile while any hold
 * exists (its {@code profile_holds}). Holding also proves the profile exists in the caller's workspace and
 * mode, under the profile's row lock, so an assignment and a deletion cannot cross.
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

    /** Whether the profile exists in this workspace and mode (a connect session is created for one). */
    @Timeout(value = 3, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 2, delay = 100, retryOn = UpstreamUnavailable.class)
    @CircuitBreaker(
            requestVolumeThreshold = 10,
            failureRatio = 0.5,
            delay = 5,
            delayUnit = ChronoUnit.SECONDS,
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

    /** True when the profile exists in this workspace and mode and now holds the account; false when it does not exist. */
    @Timeout(value = 3, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 2, delay = 100, retryOn = UpstreamUnavailable.class)
    @CircuitBreaker(
            requestVolumeThreshold = 10,
            failureRatio = 0.5,
            delay = 5,
            delayUnit = ChronoUnit.SECONDS,
            failOn = {UpstreamUnavailable.class, TimeoutException.class})
    public Uni<Boolean> hold(String workspaceId, Mode mode, String profileId, String accountId) {
        return api.hold(bearer.of(workspaceId, mode), profileId, accountId)
                .onFailure()
                .transform(failure -> new UpstreamUnavailable(SERVICE, failure.toString()))
                .map(response -> switch (response.getStatus()) {
                    case 200, 204 -> true;
                    case 404 -> false;
                    default -> throw UpstreamResponses.refusal(mapper, response, SERVICE);
                });
    }

    /** Drops the account's hold on the profile; a hold that is not there (or a profile that is gone) is fine. */
    @Timeout(value = 3, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 3, delay = 200, retryOn = UpstreamUnavailable.class)
    public Uni<Void> release(String workspaceId, Mode mode, String profileId, String accountId) {
        return api.release(bearer.of(workspaceId, mode), profileId, accountId)
                .onFailure()
                .transform(failure -> new UpstreamUnavailable(SERVICE, failure.toString()))
                .map(response -> switch (response.getStatus()) {
                    case 200, 204, 404 -> null;
                    default -> throw UpstreamResponses.refusal(mapper, response, SERVICE);
                });
    }
}
