package dev.herald.delivery.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.auth.Mode;
import dev.herald.common.client.InternalBearer;
import dev.herald.common.wire.ReservationCheck;
import dev.herald.common.wire.TargetError;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * Asks usage-service, right before a delivery, whether its publication reservation may still be consumed
 * (spec section 3: a destination over account capacity or out of allowance at delivery fails with the matching
 * error). The check changes nothing, so retrying it is always safe.
 */
@ApplicationScoped
public class UsageClient {
    private final UsageServiceApi api;
    private final InternalBearer bearer;
    private final ObjectMapper mapper;

    public UsageClient(@RestClient UsageServiceApi api, InternalBearer bearer, ObjectMapper mapper) {
        this.api = api;
        this.bearer = bearer;
        this.mapper = mapper;
    }

    /**
     * {@link UsageVerdict#ALLOWED} on {@code 200 {"data": ...}}; a refusal on {@code 429 usage_limit_exceeded} or
     * {@code 409 account_capacity_exceeded} (live deliveries ask for the capacity check), or {@code 409 conflict} for an
     * account disconnected since (target error {@code account_disconnected}). Anything else fails with
     * {@link UsageServiceUnavailable} (or a timeout, or an open circuit): the caller asks again later.
     */
    @Timeout(value = 3, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 2, delay = 100, retryOn = UsageServiceUnavailable.class)
    @CircuitBreaker(
            requestVolumeThreshold = 10,
            failureRatio = 0.5,
            delay = 5,
            delayUnit = ChronoUnit.SECONDS,
            failOn = {UsageServiceUnavailable.class, TimeoutException.class})
    public Uni<UsageVerdict> check(String workspaceId, Mode mode, String reservationId, String accountId, Instant at) {
        String body;
        try {
            body = mapper.writeValueAsString(new ReservationCheck(mode == Mode.LIVE, at, accountId));
        } catch (JsonProcessingException e) {
            return Uni.createFrom().failure(new IllegalStateException("a reservation check cannot be serialized", e));
        }
        return api.check(bearer.of(workspaceId, mode), reservationId, body)
                .onFailure()
                .transform(failure -> failure instanceof UsageServiceUnavailable
                        ? failure
                        : new UsageServiceUnavailable("no answer (" + failure + ")"))
                .map(this::verdict);
    }

    /**
     * Reserves {@code units} of {@code media_bytes} for one destination's upload before any byte moves
     * ({@link dev.herald.common.wire.UsageReservation#mediaBytesId}): a new id is created ({@code 201}), the same id
     * with more units grows, with as many or fewer answers unchanged ({@code 200}), so every attempt of the destination
     * shares one reservation and it is charged once, for its largest transfer. A refusal is
     * {@code 429 usage_limit_exceeded} with the spec's details. Safe to repeat.
     */
    @Timeout(value = 3, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 2, delay = 100, retryOn = UsageServiceUnavailable.class)
    public Uni<UsageVerdict> reserveMediaBytes(
            String workspaceId, Mode mode, String reservationId, long units, Instant at) {
        var body = mapper.createObjectNode()
                .put("reservation_id", reservationId)
                .put("meter", dev.herald.common.wire.UsageReservation.METER_MEDIA_BYTES)
                .put("units", units)
                .put("at", at.toString());
        return api.reserve(bearer.of(workspaceId, mode), body.toString())
                .onFailure()
                .transform(UsageClient::unavailable)
                .map(response -> response.getStatus() == 201
                        ? readEnvelopeThen(response, UsageVerdict.ALLOWED)
                        : verdict(response));
    }

    /** Counts the reservation as used (the transfer completed). Already consumed is done. */
    @Timeout(value = 3, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 2, delay = 100, retryOn = UsageServiceUnavailable.class)
    public Uni<Void> consume(String workspaceId, Mode mode, String reservationId, Instant at) {
        String body = mapper.createObjectNode().put("at", at.toString()).toString();
        return api.consume(bearer.of(workspaceId, mode), reservationId, body)
                .onFailure()
                .transform(UsageClient::unavailable)
                .map(response -> settled(response, "consume"));
    }

    /** Gives the reservation's units back (the destination ended without a completed transfer). */
    @Timeout(value = 3, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 2, delay = 100, retryOn = UsageServiceUnavailable.class)
    public Uni<Void> release(String workspaceId, Mode mode, String reservationId) {
        return api.release(bearer.of(workspaceId, mode), reservationId, "{}")
                .onFailure()
                .transform(UsageClient::unavailable)
                .map(response -> settled(response, "release"));
    }

    /** The plan's concurrent media ingests for the workspace and mode ({@code GET /internal/entitlements}). */
    @Timeout(value = 3, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 2, delay = 100, retryOn = UsageServiceUnavailable.class)
    public Uni<Integer> concurrentIngests(String workspaceId, Mode mode) {
        return api.entitlements(bearer.of(workspaceId, mode))
                .onFailure()
                .transform(UsageClient::unavailable)
                .map(response -> {
                    JsonNode limit = readEnvelope(response).path("data").path("concurrent_ingests");
                    if (response.getStatus() != 200 || !limit.canConvertToInt()) {
                        throw new UsageServiceUnavailable("entitlements answered " + response.getStatus());
                    }
                    return limit.asInt();
                });
    }

    private static Throwable unavailable(Throwable failure) {
        return failure instanceof UsageServiceUnavailable
                ? failure
                : new UsageServiceUnavailable("no answer (" + failure + ")");
    }

    private UsageVerdict readEnvelopeThen(Response response, UsageVerdict verdict) {
        if (!readEnvelope(response).path("data").isObject()) {
            throw new UsageServiceUnavailable("answered " + response.getStatus() + " without a reservation");
        }
        return verdict;
    }

    /**
     * {@code 200}: done. {@code 409}: the reservation is in another final state already (consumed, released, expired),
     * which a repeated call after a lost answer also meets: nothing left to do. {@code 404}: there is none to settle.
     */
    private Void settled(Response response, String what) {
        int status = response.getStatus();
        if (status == 200 || status == 409 || status == 404) {
            response.close();
            return null;
        }
        throw new UsageServiceUnavailable(what + " answered " + status);
    }

    private UsageVerdict verdict(Response response) {
        JsonNode envelope = readEnvelope(response);
        int status = response.getStatus();
        if (status == 200 && envelope.path("data").isObject()) {
            return UsageVerdict.ALLOWED;
        }
        JsonNode error = envelope.path("error");
        String code = error.path("code").asText("");
        if (refusal(ErrorCode.USAGE_LIMIT_EXCEEDED, status, code)
                || refusal(ErrorCode.ACCOUNT_CAPACITY_EXCEEDED, status, code)) {
            @SuppressWarnings("unchecked")
            Map<String, Object> details = error.path("details").isObject()
                    ? mapper.convertValue(error.get("details"), LinkedHashMap.class)
                    : Map.of();
            return new UsageVerdict(new TargetError(code, error.path("message").asText(""), false, details));
        }
        if (refusal(ErrorCode.CONFLICT, status, code)
                && TargetError.ACCOUNT_DISCONNECTED.equals(
                        error.path("details").path("reason").asText())) {
            // The account was disconnected after the post was accepted: the same target error a live delivery gets.
            return new UsageVerdict(new TargetError(
                    TargetError.ACCOUNT_DISCONNECTED,
                    error.path("message").asText(""),
                    false,
                    Map.of(
                            "account_id",
                            error.path("details").path("account_id").asText(),
                            "reason",
                            TargetError.ACCOUNT_DISCONNECTED)));
        }
        throw new UsageServiceUnavailable("answered " + status + (code.isEmpty() ? "" : " " + code));
    }

    private static boolean refusal(ErrorCode expected, int status, String code) {
        return expected.httpStatus() == status && expected.code().equals(code);
    }

    private JsonNode readEnvelope(Response response) {
        try {
            JsonNode envelope = mapper.readTree(response.readEntity(String.class));
            return envelope == null ? mapper.createObjectNode() : envelope;
        } catch (JsonProcessingException | RuntimeException e) {
            throw new UsageServiceUnavailable("an unreadable answer with status " + response.getStatus());
        }
    }
}
