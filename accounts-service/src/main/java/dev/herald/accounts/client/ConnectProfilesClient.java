package dev.herald.accounts.client;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.auth.InternalToken;
import dev.herald.common.auth.InternalTokens;
import dev.herald.common.auth.Mode;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.temporal.ChronoUnit;
import java.util.Set;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * Whether a profile exists in a workspace and mode, asked of profiles-service (its owner) when a connect
 * session is created. A profile deleted later revokes the session through {@code profile.deleted}.
 */
@ApplicationScoped
public class ConnectProfilesClient {
    private final ConnectProfilesApi api;
    private final InternalTokens tokens;
    private final ObjectMapper mapper;

    public ConnectProfilesClient(@RestClient ConnectProfilesApi api, InternalTokens tokens, ObjectMapper mapper) {
        this.api = api;
        this.tokens = tokens;
        this.mapper = mapper;
    }

    @Timeout(value = 3, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 2, delay = 100, retryOn = UpstreamUnavailable.class)
    @CircuitBreaker(requestVolumeThreshold = 10, failureRatio = 0.5, delay = 5, delayUnit = ChronoUnit.SECONDS,
            failOn = {UpstreamUnavailable.class, TimeoutException.class})
    public Uni<Boolean> exists(String workspaceId, Mode mode, String profileId) {
        String bearer = "Bearer " + tokens.issuer().issue(new InternalToken(workspaceId, mode, "accounts-service", Set.of()));
        return api.get(bearer, profileId)
                .onFailure().transform(failure -> new UpstreamUnavailable(ProfilesClient.SERVICE, failure.toString()))
                .map(response -> switch (response.getStatus()) {
                    case 200 -> true;
                    case 404 -> false;
                    default -> throw UpstreamResponses.refusal(mapper, response, ProfilesClient.SERVICE);
                });
    }
}
