package dev.herald.delivery.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.auth.Mode;
import dev.herald.common.client.InternalBearer;
import dev.herald.common.wire.ProviderAccess;
import dev.herald.common.wire.TargetError;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * Asks accounts-service for a live account's provider access right before a publisher calls the platform
 * (grants stay sealed in accounts-service). accounts-service refreshes the token when it is about to expire, and again
 * when a publisher names the token the platform just refused; a revoked grant comes back as a refusal that fails the
 * target. The token is never logged or stored here.
 */
@ApplicationScoped
public class AccountsClient {
    private final AccountsServiceApi api;
    private final InternalBearer bearer;
    private final ObjectMapper mapper;

    public AccountsClient(@RestClient AccountsServiceApi api, InternalBearer bearer, ObjectMapper mapper) {
        this.api = api;
        this.bearer = bearer;
        this.mapper = mapper;
    }

    /** The account's access; {@code refusedToken} is the token the platform just refused (null when none). */
    // A refresh at the provider may take its whole 10 s deadline.
    @Timeout(value = 15, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 2, delay = 200, retryOn = AccountsServiceUnavailable.class)
    @CircuitBreaker(
            requestVolumeThreshold = 10,
            failureRatio = 0.5,
            delay = 5,
            delayUnit = ChronoUnit.SECONDS,
            failOn = {AccountsServiceUnavailable.class, TimeoutException.class})
    public Uni<AccountAccess> access(String workspaceId, Mode mode, String accountId, String refusedToken) {
        Map<String, String> request = new LinkedHashMap<>();
        if (refusedToken != null) {
            request.put("rejected_token_sha256", sha256(refusedToken));
        }
        String body;
        try {
            body = mapper.writeValueAsString(request);
        } catch (JsonProcessingException e) {
            return Uni.createFrom().failure(new IllegalStateException("an access request cannot be serialized", e));
        }
        return api.accessToken(bearer.of(workspaceId, mode), accountId, body)
                .onFailure()
                .transform(failure -> failure instanceof AccountsServiceUnavailable
                        ? failure
                        : new AccountsServiceUnavailable(
                                "no answer (" + failure.getClass().getSimpleName() + ")"))
                .map(response -> answer(accountId, response));
    }

    private AccountAccess answer(String accountId, Response response) {
        JsonNode envelope = readEnvelope(response);
        int status = response.getStatus();
        if (status == 200 && envelope.path("data").isObject()) {
            try {
                return AccountAccess.granted(mapper.treeToValue(envelope.get("data"), ProviderAccess.class));
            } catch (JsonProcessingException e) {
                throw new AccountsServiceUnavailable("an unreadable access");
            }
        }
        JsonNode error = envelope.path("error");
        String code = error.path("code").asText("");
        JsonNode details = error.path("details");
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
        throw new AccountsServiceUnavailable("answered " + status + (code.isEmpty() ? "" : " " + code));
    }

    private JsonNode readEnvelope(Response response) {
        try {
            JsonNode envelope = mapper.readTree(response.readEntity(String.class));
            return envelope == null ? mapper.createObjectNode() : envelope;
        } catch (JsonProcessingException | RuntimeException e) {
            throw new AccountsServiceUnavailable("an unreadable answer with status " + response.getStatus());
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
