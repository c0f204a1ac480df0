package dev.herald.common.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.auth.Mode;
import dev.herald.common.wire.Entitlements;
import dev.herald.common.wire.PlanAllowances;
import dev.herald.common.wire.ReservationBatch;
import dev.herald.common.wire.ReservationCheck;
import dev.herald.common.wire.TargetError;
import dev.herald.common.wire.UsageReservation;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
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
 * usage-service, the owner of plans, allowances and account capacity, which checks them atomically (spec section 8;
 * fault tolerance: see the package). The gateway reads entitlements and changes plans; accounts-service takes and
 * frees connected-account slots; posts-service reserves publications and comment requests; delivery-worker checks a
 * publication's reservation before each delivery and reserves and settles media bytes. Every write is idempotent per
 * the caller's id (account, reservation), so a retry never charges twice.
 *
 * <p>About 300 lines: eleven calls from four services, each reading its own answers.
 */
// usage-service answers from a few locked rows; 5 s is the longest any caller gave it (posts-service's reservations,
// the gateway's plan changes) and the callers' read timeout, so no call that is answered today times out here.
@Timeout(value = 5, unit = ChronoUnit.SECONDS)
@Retry(maxRetries = 2, delay = 100, retryOn = UpstreamUnavailable.class)
@ApplicationScoped
public class UsageClient {
    static final String SERVICE = "usage-service";

    private final UsageServiceApi api;
    private final InternalBearer bearer;
    private final ObjectMapper mapper;

    /** {@code api}: see the package on why an {@link Instance}. */
    public UsageClient(@RestClient Instance<UsageServiceApi> api, InternalBearer bearer, ObjectMapper mapper) {
        this.api = api.get();
        this.bearer = bearer;
        this.mapper = mapper;
    }

    /** The gateway's admission: the plan's limits for the workspace and mode ({@code GET /internal/entitlements}). */
    // Admission waits on it, and the gateway keeps the last known entitlements when it fails: it gives up sooner.
    @Timeout(value = 2, unit = ChronoUnit.SECONDS)
    @CircuitBreaker(
            requestVolumeThreshold = 10,
            failOn = {UpstreamUnavailable.class, TimeoutException.class})
    public Uni<Entitlements> entitlements(String workspaceId, Mode mode) {
        return api.entitlements(bearer.of(workspaceId, mode))
                .onFailure()
                .transform(failure -> new UpstreamUnavailable(SERVICE, failure.toString()))
                .map(response -> {
                    if (response.getStatus() != 200) {
                        throw new UpstreamUnavailable(SERVICE, "entitlements answered " + response.getStatus());
                    }
                    JsonNode data = UpstreamResponses.data(mapper, response, SERVICE);
                    try {
                        return mapper.treeToValue(data, Entitlements.class);
                    } catch (JsonProcessingException | RuntimeException e) {
                        throw new UpstreamUnavailable(SERVICE, "unreadable entitlements: " + e.getMessage());
                    }
                });
    }

    /** The catalog's plans in {@code mode}, cheapest first ({@code GET /internal/plans}; the dashboard's plan comparison). */
    @CircuitBreaker(
            requestVolumeThreshold = 10,
            failOn = {UpstreamUnavailable.class, TimeoutException.class})
    public Uni<List<PlanAllowances>> plans(String workspaceId, Mode mode) {
        return api.plans(bearer.of(workspaceId, mode))
                .onFailure()
                .transform(UsageClient::unavailable)
                .map(response -> {
                    if (response.getStatus() != 200) {
                        throw new UpstreamUnavailable(SERVICE, "plans answered " + response.getStatus());
                    }
                    JsonNode data = UpstreamResponses.data(mapper, response, SERVICE);
                    try {
                        return List.of(mapper.treeToValue(data, PlanAllowances[].class));
                    } catch (JsonProcessingException | RuntimeException e) {
                        throw new UpstreamUnavailable(SERVICE, "unreadable plans: " + e.getMessage());
                    }
                });
    }

    /** The plan's concurrent media ingests for the workspace and mode (delivery-worker's uploads). */
    @CircuitBreaker(
            requestVolumeThreshold = 10,
            failOn = {UpstreamUnavailable.class, TimeoutException.class})
    public Uni<Integer> concurrentIngests(String workspaceId, Mode mode) {
        return api.entitlements(bearer.of(workspaceId, mode))
                .onFailure()
                .transform(UsageClient::unavailable)
                .map(response -> {
                    JsonNode limit = envelope(response).path("data").path("concurrent_ingests");
                    if (response.getStatus() != 200 || !limit.canConvertToInt()) {
                        throw new UpstreamUnavailable(SERVICE, "entitlements answered " + response.getStatus());
                    }
                    return limit.asInt();
                });
    }

    /**
     * Changes a workspace+mode's plan (the gateway's admin API). usage-service's answer, success or validation error,
     * is passed on as it is; a {@code 5xx} is an {@link UpstreamUnavailable}.
     */
    @CircuitBreaker(
            requestVolumeThreshold = 10,
            failOn = {UpstreamUnavailable.class, TimeoutException.class})
    public Uni<Response> changeSubscription(String workspaceId, Mode mode, JsonNode body) {
        return api.changeSubscription(bearer.of(workspaceId, mode), body.toString())
                .onFailure()
                .transform(failure -> new UpstreamUnavailable(SERVICE, failure.toString()))
                .map(response -> {
                    if (response.getStatus() >= 500) {
                        throw new UpstreamUnavailable(SERVICE, "subscription change answered " + response.getStatus());
                    }
                    return response;
                });
    }

    /**
     * Takes a slot for the account, and one unit of the month's new connections when {@code newConnection}.
     * Refusals ({@code 409 account_limit_reached}, {@code 429 usage_limit_exceeded}) are passed on with
     * usage-service's details. A slot the account already holds is kept and charges nothing.
     */
    @CircuitBreaker(
            requestVolumeThreshold = 10,
            failOn = {UpstreamUnavailable.class, TimeoutException.class})
    public Uni<Void> connect(String workspaceId, Mode mode, String accountId, boolean newConnection) {
        ObjectNode body = mapper.createObjectNode().put("account_id", accountId).put("new_connection", newConnection);
        return api.connect(bearer.of(workspaceId, mode), body.toString())
                .onFailure()
                .transform(failure -> new UpstreamUnavailable(SERVICE, failure.toString()))
                .map(response -> {
                    if (response.getStatus() == 200 || response.getStatus() == 201) {
                        return null;
                    }
                    throw UpstreamResponses.refusal(
                            mapper, response, SERVICE, ErrorCode.ACCOUNT_LIMIT_REACHED, ErrorCode.USAGE_LIMIT_EXCEEDED);
                });
    }

    /** Frees the account's slot (a settlement); freeing a slot it does not hold is fine. */
    @Retry(maxRetries = 3, delay = 200, retryOn = UpstreamUnavailable.class)
    public Uni<Void> disconnect(String workspaceId, Mode mode, String accountId) {
        return api.disconnect(bearer.of(workspaceId, mode), accountId)
                .onFailure()
                .transform(failure -> new UpstreamUnavailable(SERVICE, failure.toString()))
                .map(response -> {
                    if (response.getStatus() == 200 || response.getStatus() == 204) {
                        return null;
                    }
                    throw UpstreamResponses.refusal(mapper, response, SERVICE);
                });
    }

    /**
     * Reserves every item of the batch or none (posts-service's publications and comment requests). Refusals
     * ({@code 429 usage_limit_exceeded}, {@code 409 account_capacity_exceeded}) are passed on with usage-service's
     * details and Retry-After.
     */
    @CircuitBreaker(
            requestVolumeThreshold = 10,
            failOn = {UpstreamUnavailable.class, TimeoutException.class})
    public Uni<Void> reserve(String workspaceId, Mode mode, ReservationBatch batch) {
        String body;
        try {
            body = mapper.writeValueAsString(batch);
        } catch (JsonProcessingException e) {
            return Uni.createFrom().failure(e);
        }
        return api.reserveBatch(bearer.of(workspaceId, mode), body)
                .onFailure()
                .transform(failure -> new UpstreamUnavailable(SERVICE, failure.toString()))
                .map(response -> {
                    if (response.getStatus() == 200 || response.getStatus() == 201) {
                        return null;
                    }
                    throw UpstreamResponses.refusal(
                            mapper,
                            response,
                            SERVICE,
                            ErrorCode.USAGE_LIMIT_EXCEEDED,
                            ErrorCode.ACCOUNT_CAPACITY_EXCEEDED);
                });
    }

    /**
     * Reserves {@code units} of {@code media_bytes} for one destination's upload before any byte moves
     * ({@link UsageReservation#mediaBytesId}): a new id is created ({@code 201}), the same id with more units grows,
     * with as many or fewer answers unchanged ({@code 200}), so every attempt of the destination shares one
     * reservation and it is charged once, for its largest transfer. A refusal is {@code 429 usage_limit_exceeded}
     * with the spec's details, as the target's error.
     */
    @CircuitBreaker(
            requestVolumeThreshold = 10,
            failOn = {UpstreamUnavailable.class, TimeoutException.class})
    public Uni<UsageVerdict> reserveMediaBytes(
            String workspaceId, Mode mode, String reservationId, long units, Instant at) {
        var body = mapper.createObjectNode()
                .put("reservation_id", reservationId)
                .put("meter", UsageReservation.METER_MEDIA_BYTES)
                .put("units", units)
                .put("at", at.toString());
        return api.reserve(bearer.of(workspaceId, mode), body.toString())
                .onFailure()
                .transform(UsageClient::unavailable)
                .map(response -> {
                    if (response.getStatus() != 201) {
                        return verdict(response);
                    }
                    if (!envelope(response).path("data").isObject()) {
                        throw new UpstreamUnavailable(SERVICE, "answered 201 without a reservation");
                    }
                    return UsageVerdict.ALLOWED;
                });
    }

    /**
     * Whether a publication's reservation may still be consumed, right before its delivery (spec section 3; changes
     * nothing). {@link UsageVerdict#ALLOWED} on {@code 200 {"data": ...}}; the target's error on {@code 429
     * usage_limit_exceeded} or {@code 409 account_capacity_exceeded} (live deliveries ask for the capacity check), or
     * on {@code 409 conflict} for an account disconnected since ({@code account_disconnected}).
     */
    @CircuitBreaker(
            requestVolumeThreshold = 10,
            failOn = {UpstreamUnavailable.class, TimeoutException.class})
    public Uni<UsageVerdict> check(String workspaceId, Mode mode, String reservationId, String accountId, Instant at) {
        String body;
        try {
            body = mapper.writeValueAsString(new ReservationCheck(mode == Mode.LIVE, at, accountId));
        } catch (JsonProcessingException e) {
            return Uni.createFrom().failure(new IllegalStateException("a reservation check cannot be serialized", e));
        }
        return api.check(bearer.of(workspaceId, mode), reservationId, body)
                .onFailure()
                .transform(UsageClient::unavailable)
                .map(this::verdict);
    }

    /**
     * Counts the reservation as used (a settlement): the work completed at {@code at}, or now when null. One consumed
     * already is done, as is one in another final state (released, expired) or none at all: nothing is left to count.
     */
    @Retry(maxRetries = 3, delay = 200, retryOn = UpstreamUnavailable.class)
    public Uni<Void> consume(String workspaceId, Mode mode, String reservationId, Instant at) {
        ObjectNode body = mapper.createObjectNode();
        if (at != null) {
            body.put("at", at.toString());
        }
        return api.consume(bearer.of(workspaceId, mode), reservationId, body.toString())
                .onFailure()
                .transform(UsageClient::unavailable)
                .map(response -> settled(response, "consume"));
    }

    /**
     * Gives the reservation's units back (a settlement). One released already is done, as is one in another final
     * state (consumed) or none at all: nothing is left to give back.
     */
    @Retry(maxRetries = 3, delay = 200, retryOn = UpstreamUnavailable.class)
    public Uni<Void> release(String workspaceId, Mode mode, String reservationId) {
        return api.release(bearer.of(workspaceId, mode), reservationId, "{}")
                .onFailure()
                .transform(UsageClient::unavailable)
                .map(response -> settled(response, "release"));
    }

    private static Throwable unavailable(Throwable failure) {
        return failure instanceof UpstreamUnavailable ? failure : new UpstreamUnavailable(SERVICE, failure.toString());
    }

    /**
     * {@code 200}: done. {@code 409}: the reservation is in another final state already, which a repeated call after
     * a lost answer also meets. {@code 404}: there is none to settle.
     */
    private Void settled(Response response, String what) {
        int status = response.getStatus();
        if (status == 200 || status == 409 || status == 404) {
            response.close();
            return null;
        }
        throw new UpstreamUnavailable(SERVICE, what + " answered " + status);
    }

    private UsageVerdict verdict(Response response) {
        JsonNode envelope = envelope(response);
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
        throw new UpstreamUnavailable(SERVICE, "answered " + status + (code.isEmpty() ? "" : " " + code));
    }

    private static boolean refusal(ErrorCode expected, int status, String code) {
        return expected.httpStatus() == status && expected.code().equals(code);
    }

    private JsonNode envelope(Response response) {
        try {
            JsonNode envelope = mapper.readTree(response.readEntity(String.class));
            return envelope == null ? mapper.createObjectNode() : envelope;
        } catch (JsonProcessingException | RuntimeException e) {
            throw new UpstreamUnavailable(SERVICE, "an unreadable answer with status " + response.getStatus());
        }
    }
}
