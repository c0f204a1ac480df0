package dev.herald.posts.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.auth.Mode;
import dev.herald.common.client.InternalBearer;
import dev.herald.common.client.UpstreamResponses;
import dev.herald.common.client.UpstreamUnavailable;
import dev.herald.common.wire.AccountForPosting;
import dev.herald.common.wire.ProviderAccess;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
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
 * creator controls), and a live account's provider access for comment calls (grants stay in accounts-service, which
 * renews them). Reads, so retried freely; an access request that names a refused token is answered once per token by
 * accounts-service however often it arrives.
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
    @CircuitBreaker(
            requestVolumeThreshold = 20,
            failureRatio = 0.5,
            delay = 5,
            delayUnit = ChronoUnit.SECONDS,
            failOn = {UpstreamUnavailable.class, TimeoutException.class})
    public Uni<Map<String, AccountForPosting>> lookup(String workspaceId, Mode mode, List<String> ids) {
        String body;
        try {
            body = mapper.writeValueAsString(new AccountForPosting.Lookup(ids));
        } catch (JsonProcessingException e) {
            return Uni.createFrom().failure(e);
        }
        return api.lookup(bearer.of(workspaceId, mode), body)
                .onFailure()
                .transform(failure -> new UpstreamUnavailable(SERVICE, failure.toString()))
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

    /**
     * The live account's provider access, renewed first when {@code refusedToken} (the token the platform just
     * refused; null when none) is still current. accounts-service's refusals pass on as they are: {@code 409
     * conflict} (the grant is revoked or the account disconnected, with {@code details.reason}), {@code 502
     * provider_error} (the platform could not renew it now), {@code 404}.
     */
    // A renewal at the provider may take its whole 10 s deadline.
    @Timeout(value = 15, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 2, delay = 200, retryOn = UpstreamUnavailable.class)
    @CircuitBreaker(
            requestVolumeThreshold = 20,
            failureRatio = 0.5,
            delay = 5,
            delayUnit = ChronoUnit.SECONDS,
            failOn = {UpstreamUnavailable.class, TimeoutException.class})
    public Uni<ProviderAccess> access(String workspaceId, Mode mode, String accountId, String refusedToken) {
        Map<String, String> request = new LinkedHashMap<>();
        if (refusedToken != null) {
            request.put("rejected_token_sha256", sha256(refusedToken));
        }
        String body;
        try {
            body = mapper.writeValueAsString(request);
        } catch (JsonProcessingException e) {
            return Uni.createFrom().failure(e);
        }
        return api.accessToken(bearer.of(workspaceId, mode), accountId, body)
                .onFailure()
                .transform(failure -> new UpstreamUnavailable(SERVICE, failure.toString()))
                .map(response -> {
                    if (response.getStatus() != 200) {
                        throw UpstreamResponses.refusal(
                                mapper,
                                response,
                                SERVICE,
                                ErrorCode.CONFLICT,
                                ErrorCode.PROVIDER_ERROR,
                                ErrorCode.NOT_FOUND);
                    }
                    try {
                        return mapper.treeToValue(
                                UpstreamResponses.data(mapper, response, SERVICE), ProviderAccess.class);
                    } catch (JsonProcessingException | RuntimeException e) {
                        throw new UpstreamUnavailable(SERVICE, "an unreadable access");
                    }
                });
    }

    static String sha256(String token) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
