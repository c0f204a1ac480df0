package dev.herald.common.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.auth.Mode;
import dev.herald.common.wire.AccountForPosting;
import dev.herald.common.wire.ProviderAccess;
import dev.herald.common.wire.TargetError;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.ws.rs.core.Response;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
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
 * accounts-service (fault tolerance: see the package): the accounts a post names, as accounts-service knows them now
 * (status, platform, profile, and TikTok's creator controls), and a live account's provider access right before a
 * platform call: tokens are refreshed in one place, where they are stored. accounts-service renews the token when it is about to expire, and again when the
 * caller names the token the platform just refused; it answers that once per token however often it arrives. The
 * token is never logged or stored here.
 */
// A lookup reads a few rows (but may ask TikTok for a creator's controls); 5 s, as posts-service has always given it.
@Timeout(value = 5, unit = ChronoUnit.SECONDS)
@Retry(maxRetries = 2, delay = 100, retryOn = UpstreamUnavailable.class)
@ApplicationScoped
public class AccountsClient {
    static final String SERVICE = "accounts-service";

    private final AccountsServiceApi api;
    private final InternalBearer bearer;
    private final ObjectMapper mapper;

    /** {@code api}: see the package on why an {@link Instance}. */
    public AccountsClient(@RestClient Instance<AccountsServiceApi> api, InternalBearer bearer, ObjectMapper mapper) {
        this.api = api.get();
        this.bearer = bearer;
        this.mapper = mapper;
    }

    /** The tenant's accounts among {@code ids}, by id; unknown ids and other tenants' are absent. */
    @CircuitBreaker(
            requestVolumeThreshold = 10,
            failOn = {UpstreamUnavailable.class, TimeoutException.class})
    public Uni<Map<String, AccountForPosting>> lookup(String workspaceId, Mode mode, List<String> ids) {
        return lookupOnce(workspaceId, mode, ids, null);
    }

    /**
     * The same for a post to publish at {@code scheduledAt} (null: now), which accounts-service uses to check the live
     * accounts' grants shortly before that time. Annotated itself (not calling the other through {@code this}, which
     * would skip the interceptors), so acceptance's lookups have a circuit of their own.
     */
    @CircuitBreaker(
            requestVolumeThreshold = 10,
            failOn = {UpstreamUnavailable.class, TimeoutException.class})
    public Uni<Map<String, AccountForPosting>> lookup(
            String workspaceId, Mode mode, List<String> ids, Instant scheduledAt) {
        return lookupOnce(workspaceId, mode, ids, scheduledAt);
    }

    private Uni<Map<String, AccountForPosting>> lookupOnce(
            String workspaceId, Mode mode, List<String> ids, Instant scheduledAt) {
        String body;
        try {
            body = mapper.writeValueAsString(new AccountForPosting.Lookup(ids, scheduledAt));
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
     * The live account's provider access, for a platform call a customer waits on (posts-service's comments and
     * analytics), renewed first when {@code refusedToken} (the token the platform just refused; null when none) is still current.
     * accounts-service's refusals pass on as they are: {@code 409 conflict} (the grant is revoked or the account
     * disconnected, with {@code details.reason}), {@code 502 provider_error} (the platform could not renew it now),
     * {@code 404}.
     */
    // A renewal at the provider may take its whole 10 s deadline.
    @Timeout(value = 15, unit = ChronoUnit.SECONDS)
    @CircuitBreaker(
            requestVolumeThreshold = 10,
            failOn = {UpstreamUnavailable.class, TimeoutException.class})
    public Uni<ProviderAccess> access(String workspaceId, Mode mode, String accountId, String refusedToken) {
        return api.accessToken(bearer.of(workspaceId, mode), accountId, accessRequest(refusedToken))
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

    /**
     * The live account's provider access for a delivery attempt (delivery-worker's publishers), where a refusal is
     * the target's error rather than a failure: a disconnected account is {@code account_disconnected}, not retryable;
     * an account that needs re-authorization (409 with {@code details.reason} {@code account_reauth_required}) is
     * {@code account_reauth_required} with its {@code reconnect_url}, which the worker takes as a hold, not a failure
     * (the refusal may come before the {@code account.reauth_required} event); a provider that could not renew the token now is a {@code provider_error},
     * retryable unless accounts-service says otherwise. {@code refusedToken} as for {@link #access}.
     */
    // A renewal at the provider may take its whole 10 s deadline.
    @Timeout(value = 15, unit = ChronoUnit.SECONDS)
    @CircuitBreaker(
            requestVolumeThreshold = 10,
            failOn = {UpstreamUnavailable.class, TimeoutException.class})
    public Uni<AccountAccess> accessForDelivery(String workspaceId, Mode mode, String accountId, String refusedToken) {
        return api.accessToken(bearer.of(workspaceId, mode), accountId, accessRequest(refusedToken))
                .onFailure()
                .transform(failure -> failure instanceof UpstreamUnavailable
                        ? failure
                        : new UpstreamUnavailable(
                                SERVICE, "no answer (" + failure.getClass().getSimpleName() + ")"))
                .map(response -> deliveryAccess(accountId, response));
    }

    private String accessRequest(String refusedToken) {
        Map<String, String> request = new LinkedHashMap<>();
        if (refusedToken != null) {
            request.put("rejected_token_sha256", sha256(refusedToken));
        }
        try {
            return mapper.writeValueAsString(request);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("an access request cannot be serialized", e);
        }
    }

    private AccountAccess deliveryAccess(String accountId, Response response) {
        JsonNode envelope = envelope(response);
        int status = response.getStatus();
        if (status == 200 && envelope.path("data").isObject()) {
            try {
                return AccountAccess.granted(mapper.treeToValue(envelope.get("data"), ProviderAccess.class));
            } catch (JsonProcessingException e) {
                throw new UpstreamUnavailable(SERVICE, "an unreadable access");
            }
        }
        JsonNode error = envelope.path("error");
        String code = error.path("code").asText("");
        JsonNode details = error.path("details");
        if (status == ErrorCode.CONFLICT.httpStatus()
                && ErrorCode.CONFLICT.code().equals(code)
                && TargetError.ACCOUNT_REAUTH_REQUIRED.equals(
                        details.path("reason").asText())) {
            Map<String, Object> about = new LinkedHashMap<>();
            about.put("account_id", accountId);
            if (details.hasNonNull("reconnect_url")) {
                about.put("reconnect_url", details.get("reconnect_url").asText());
            }
            return AccountAccess.refused(new TargetError(
                    TargetError.ACCOUNT_REAUTH_REQUIRED, error.path("message").asText(""), false, about));
        }
        if (status == ErrorCode.CONFLICT.httpStatus()
                && ErrorCode.CONFLICT.code().equals(code)) {
            Map<String, Object> about = new LinkedHashMap<>();
            about.put("account_id", accountId);
            about.put("reason", details.path("reason").asText("account_disconnected"));
            if (details.hasNonNull("provider_code")) {
                about.put("provider_code", details.get("provider_code").asText());
            }
            return AccountAccess.refused(new TargetError(
                    TargetError.ACCOUNT_DISCONNECTED, error.path("message").asText(""), false, about));
        }
        if (status == ErrorCode.NOT_FOUND.httpStatus()) {
            // Accounts are never deleted, so only a tenant mix-up could lead here: nothing to retry.
            return AccountAccess.refused(new TargetError(
                    TargetError.ACCOUNT_DISCONNECTED,
                    "The account was not found in this workspace and mode.",
                    false,
                    Map.of("account_id", accountId)));
        }
        if (status == ErrorCode.PROVIDER_ERROR.httpStatus()
                && ErrorCode.PROVIDER_ERROR.code().equals(code)) {
            boolean retryable = details.path("retryable").asBoolean(true);
            return AccountAccess.refused(new TargetError(
                    TargetError.PROVIDER_ERROR,
                    error.path("message").asText(""),
                    retryable,
                    Map.of(
                            "account_id",
                            accountId,
                            "provider_code",
                            details.path("provider_code").asText("unknown"))));
        }
        throw new UpstreamUnavailable(SERVICE, "answered " + status + (code.isEmpty() ? "" : " " + code));
    }

    private JsonNode envelope(Response response) {
        try {
            JsonNode envelope = mapper.readTree(response.readEntity(String.class));
            return envelope == null ? mapper.createObjectNode() : envelope;
        } catch (JsonProcessingException | RuntimeException e) {
            throw new UpstreamUnavailable(SERVICE, "an unreadable answer with status " + response.getStatus());
        }
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
