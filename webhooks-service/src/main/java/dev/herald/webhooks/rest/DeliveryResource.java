package dev.herald.webhooks.rest;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.api.ApiException;
import dev.herald.common.api.DataEnvelope;
import dev.herald.common.api.ListEnvelope;
import dev.herald.common.auth.Caller;
import dev.herald.common.auth.InternalCaller;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.paging.Paginated;
import dev.herald.common.validation.JsonBody;
import dev.herald.common.wire.WebhookDelivery;
import dev.herald.webhooks.model.DeliveryFilters;
import dev.herald.webhooks.service.DeliveryService;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import org.jboss.resteasy.reactive.server.Cancellable;

/** {@code /deliveries}: the webhook delivery log, and manual redelivery of a failed delivery. */
@Cancellable(false)
@Path("/deliveries")
@InternalCaller
@Produces(MediaType.APPLICATION_JSON)
public class DeliveryResource {
    static final List<String> STATUSES =
            List.of(WebhookDelivery.PENDING, WebhookDelivery.SUCCEEDED, WebhookDelivery.FAILED);

    private final DeliveryService deliveries;
    private final Caller caller;
    private final ObjectMapper mapper;

    public DeliveryResource(DeliveryService deliveries, Caller caller, ObjectMapper mapper) {
        this.deliveries = deliveries;
        this.caller = caller;
        this.mapper = mapper;
    }

    @GET
    @Paginated
    public Uni<ListEnvelope<WebhookDelivery>> list(
            @QueryParam("endpoint_id") String endpointId,
            @QueryParam("event_id") String eventId,
            @QueryParam("status") String status,
            @QueryParam("limit") String limit,
            @QueryParam("cursor") String cursor) {
        if (endpointId != null && !IdPrefix.WEBHOOK_ENDPOINT.matches(endpointId)) {
            throw ApiException.invalidParameter(
                    "endpoint_id", "endpoint_id must be a webhook endpoint id (whe_ and 24 hex characters).");
        }
        if (eventId != null && !IdPrefix.EVENT.matches(eventId)) {
            throw ApiException.invalidParameter(
                    "event_id", "event_id must be an event id (evt_ and 24 hex characters).");
        }
        if (status != null && !STATUSES.contains(status)) {
            throw ApiException.invalidParameter("status", "status must be one of " + String.join(", ", STATUSES) + ".");
        }
        return deliveries.list(
                caller.workspaceId(), caller.mode(), new DeliveryFilters(endpointId, eventId, status), limit, cursor);
    }

    /** Attempts a failed delivery again now; answers it, pending (202: on its way). */
    @POST
    @Path("/{id}/retry")
    public Uni<Response> retry(@PathParam("id") String id, String body) {
        JsonBody.noFields(body, mapper);
        return deliveries
                .retry(caller.workspaceId(), caller.mode(), id)
                .map(delivery -> Response.status(Response.Status.ACCEPTED)
                        .entity(DataEnvelope.of(delivery))
                        .build());
    }
}
