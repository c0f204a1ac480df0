package dev.herald.usage.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.api.DataEnvelope;
import dev.herald.common.auth.Caller;
import dev.herald.common.auth.InternalCaller;
import dev.herald.common.time.Timestamps;
import dev.herald.common.validation.JsonBody;
import dev.herald.common.wire.UsageReservation;
import dev.herald.usage.catalog.Meter;
import dev.herald.usage.service.ReservationBatchService;
import dev.herald.usage.service.ReservationCheck;
import dev.herald.usage.service.ReservationMetrics;
import dev.herald.usage.service.ReservationRequest;
import dev.herald.usage.service.ReservationService;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.jboss.resteasy.reactive.server.Cancellable;

/**
 * {@code /internal/reservations}: other services reserve units of a monthly meter before accepting work,
 * then consume them when the work completes or release them when it does not. The internal JWT's
 * workspace and mode scope every reservation.
 */
@Cancellable(false)
@Path("/internal/reservations")
@InternalCaller
@Produces(MediaType.APPLICATION_JSON)
public class ReservationResource {
    static final Pattern RESERVATION_ID = Pattern.compile("^[A-Za-z0-9_-]+$");
    static final int MAX_RESERVATION_ID_LENGTH = 100;
    /** 10^15: far above any allowance (500 GB of media is 5 * 10^11 bytes). */
    static final long MAX_UNITS = 1_000_000_000_000_000L;
    /** {@code at} may be a post's scheduled time (up to a year ahead) or a completion time; beyond this it is a mistake. */
    static final Duration MAX_AT_DISTANCE = Duration.ofDays(400);

    /** A batch holds one reservation per destination of a post, and a post has at most this many. */
    static final int MAX_BATCH_ITEMS = 100;

    private static final Set<String> ITEM_FIELDS = Set.of("reservation_id", "meter", "units", "at");

    private final ReservationService reservations;
    private final ReservationCheck checks;
    private final ReservationBatchService batches;
    private final Caller caller;
    private final ObjectMapper mapper;
    private final Clock clock;
    private final ReservationMetrics metrics;

    public ReservationResource(
            ReservationService reservations,
            ReservationCheck checks,
            ReservationBatchService batches,
            Caller caller,
            ObjectMapper mapper,
            Clock clock,
            ReservationMetrics metrics) {
        this.reservations = reservations;
        this.checks = checks;
        this.batches = batches;
        this.caller = caller;
        this.mapper = mapper;
        this.clock = clock;
        this.metrics = metrics;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> reserve(JsonNode json) {
        JsonBody body = JsonBody.of(json, ITEM_FIELDS);
        ReservationRequest request = readItem(body, json);
        body.validate();
        return metrics.counted(request, reservations.reserve(caller.workspaceId(), caller.mode(), request))
                .map(outcome -> Response.status(outcome.created() ? Response.Status.CREATED : Response.Status.OK)
                        .entity(DataEnvelope.of(outcome.reservation()))
                        .build());
    }

    /**
     * {@code {"reservations": [item, ...], "require_account_capacity": bool}}: 1 to 100 items, each validated
     * like a single reservation (failures named {@code reservations[i].field}), ids distinct. All or nothing:
     * {@code 201} when something was reserved, {@code 200} when every item already was.
     */
    @POST
    @Path("/batch")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> reserveBatch(JsonNode json) {
        JsonBody body = JsonBody.of(json, Set.of("reservations", "require_account_capacity"));
        List<ReservationRequest> items = readItems(body, json.get("reservations"));
        boolean requireCapacity = BodyFields.optionalBoolean(body, json, "require_account_capacity");
        body.validate();
        return metrics.counted(
                        items,
                        batches.reserveAll(caller.workspaceId(), caller.mode(), items, requireCapacity),
                        ReservationBatchService.BatchOutcome::created)
                .map(outcome -> Response.status(outcome.created() ? Response.Status.CREATED : Response.Status.OK)
                        .entity(DataEnvelope.of(outcome.reservations()))
                        .build());
    }

    @GET
    @Path("/{id}")
    public Uni<DataEnvelope<UsageReservation>> get(@PathParam("id") String id) {
        return reservations.get(caller.workspaceId(), caller.mode(), id).map(DataEnvelope::of);
    }

    /** Optional body {@code {"at": RFC 3339}}: when the work completed (default now). */
    @POST
    @Path("/{id}/consume")
    public Uni<DataEnvelope<UsageReservation>> consume(@PathParam("id") String id, String raw, HttpHeaders headers)
            throws IOException {
        JsonBody body = JsonBody.of(BodyFields.optionalObject(mapper, raw, headers.getMediaType()), Set.of("at"));
        Instant at = at(body);
        body.validate();
        return reservations.consume(caller.workspaceId(), caller.mode(), id, at).map(DataEnvelope::of);
    }

    /**
     * Optional body {@code {"require_account_capacity": bool, "at": RFC 3339 | null}}: could the reservation be
     * consumed at {@code at} (default now)? Changes nothing.
     */
    @POST
    @Path("/{id}/check")
    public Uni<DataEnvelope<UsageReservation>> check(@PathParam("id") String id, String raw, HttpHeaders headers)
            throws IOException {
        JsonNode json = BodyFields.optionalObject(mapper, raw, headers.getMediaType());
        JsonBody body = JsonBody.of(json, Set.of("require_account_capacity", "at", "account_id"));
        boolean requireCapacity = BodyFields.optionalBoolean(body, json, "require_account_capacity");
        Instant at = at(body);
        String accountId =
                body.string("account_id").nullable().length(1, 64).read().orNull();
        body.validate();
        return checks.check(caller.workspaceId(), caller.mode(), id, requireCapacity, at, accountId)
                .map(DataEnvelope::of);
    }

    @POST
    @Path("/{id}/release")
    public Uni<DataEnvelope<UsageReservation>> release(@PathParam("id") String id, String raw, HttpHeaders headers)
            throws IOException {
        JsonBody.of(BodyFields.optionalObject(mapper, raw, headers.getMediaType()), Set.of())
                .validate();
        return reservations.release(caller.workspaceId(), caller.mode(), id).map(DataEnvelope::of);
    }

    private ReservationRequest readItem(JsonBody body, JsonNode json) {
        String id = body.string("reservation_id")
                .required()
                .length(1, MAX_RESERVATION_ID_LENGTH)
                .matching(RESERVATION_ID, "letters, digits, '_' and '-'")
                .read()
                .orNull();
        Meter meter = BodyFields.oneOf(body, "meter", Meter.values(), Meter::wireName);
        Long units = BodyFields.integer(body, json, "units", 1, MAX_UNITS);
        Instant at = at(body);
        return body.hasErrors() ? null : new ReservationRequest(id, meter, units, at);
    }

    /** Each item read like a single reservation's body; its failures are reported under {@code reservations[i].}. */
    private List<ReservationRequest> readItems(JsonBody body, JsonNode array) {
        if (array == null || array.isNull()) {
            body.reject("reservations", "required", "reservations is required.");
            return List.of();
        }
        if (!array.isArray()) {
            body.reject("reservations", "invalid_type", "reservations must be an array of reservations.");
            return List.of();
        }
        if (array.isEmpty()) {
            body.reject("reservations", "too_short", "reservations must hold at least one reservation.");
            return List.of();
        }
        if (array.size() > MAX_BATCH_ITEMS) {
            body.reject(
                    "reservations", "too_long", "reservations must hold at most " + MAX_BATCH_ITEMS + " reservations.");
            return List.of();
        }
        List<ReservationRequest> items = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < array.size(); i++) {
            String field = "reservations[" + i + "]";
            JsonNode item = array.get(i);
            if (!item.isObject()) {
                body.reject(field, "invalid_type", field + " must be an object.");
                continue;
            }
            JsonBody itemBody = JsonBody.of(item, ITEM_FIELDS);
            ReservationRequest request = readItem(itemBody, item);
            BodyFields.nested(body, field, itemBody);
            if (request == null) {
                continue;
            }
            if (!ids.add(request.id())) {
                body.reject(field + ".reservation_id", "invalid_value", request.id() + " is listed twice.");
                continue;
            }
            items.add(request);
        }
        return items;
    }

    private Instant at(JsonBody body) {
        Instant at = BodyFields.timestamp(body, "at");
        if (at != null && Duration.between(Timestamps.now(clock), at).abs().compareTo(MAX_AT_DISTANCE) > 0) {
            body.reject("at", "invalid_value", "at must be within " + MAX_AT_DISTANCE.toDays() + " days of now.");
        }
        return at;
    }
}
