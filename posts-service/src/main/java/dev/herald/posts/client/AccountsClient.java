package dev.herald.posts.client;

import dev.herald.common.client.InternalBearer;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.auth.Mode;
import dev.herald.common.client.UpstreamResponses;
import dev.herald.common.client.UpstreamUnavailable;
import dev.herald.common.wire.AccountForPosting;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * The accounts a post names, as accounts-service knows them now (status, platform, profile, and TikTok's
 * creator controls). A read, so retried freely.
 */
@ApplicationScoped
public class AccountsClient {
    static final String SERVICE = "accounts-service";

    private final AccountsServiceApi api;
    private final InternalBearer bearer;
    private final ObjectMapper mapper;

    public AccountsClient(@RestClient AccountsServiceApi api, InternalBearer bearer, ObjectMapper mapper) {
        this.api = api;
        this.bearer = bearer;
        this.mapper = mapper;
    }

    /** The tenant's accounts among {@code ids}, by id; unknown ids and other tenants' are absent. */
    @Timeout(value = 5, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 2, delay = 100, retryOn = UpstreamUnavailable.class)
    @CircuitBreaker(requestVolumeThreshold = 20, failureRatio = 0.5, delay = 5, delayUnit = ChronoUnit.SECONDS,
            failOn = {UpstreamUnavailable.class, TimeoutException.class})
    public Uni<Map<String, AccountForPosting>> lookup(String workspaceId, Mode mode, List<String> ids) {
        String body;
        try {
            body = mapper.writeValueAsString(new AccountForPosting.Lookup(ids));
        } catch (JsonProcessingException e) {
            return Uni.createFrom().failure(e);
        }
        return api.lookup(bearer.of(workspaceId, mode), body)
                .onFailure().transform(failure -> new UpstreamUnavailable(SERVICE, failure.toString()))
                .map(response -> {
                    if (response.getStatus() != 200) {
                        // A provider that cannot say what a TikTok creator allows: the post cannot be checked.
                        throw UpstreamResponses.refusal(mapper, response, SERVICE, ErrorCode.PROVIDER_ERROR);
                    }
                    JsonNode data = UpstreamResponses.data(mapper, response, SERVICE);
                    Map<String, AccountForPosting> accounts = new LinkedHashMap<>();
                    try {
                        for (JsonNode item : data) {
                            AccountForPosting account = mapper.treeToValue(item, AccountForPosting.class);
                            accounts.put(account.account().id(), account);
                        }
                    } catch (JsonProcessingException | RuntimeException e) {
                        throw new UpstreamUnavailable(SERVICE, "an unreadable account: " + e.getMessage());
                    }
                    return accounts;
                });
    }
}
