package dev.herald.webhooks.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.api.DataEnvelope;
import dev.herald.common.api.ListEnvelope;
import dev.herald.common.auth.Caller;
import dev.herald.common.auth.InternalCaller;
import dev.herald.common.paging.Paginated;
import dev.herald.common.validation.JsonBody;
import dev.herald.common.wire.WebhookDelivery;
import dev.herald.common.wire.WebhookEndpoint;
import dev.herald.webhooks.model.EndpointChanges;
import dev.herald.webhooks.rest.EndpointRequestReader.EndpointRequest;
import dev.herald.webhooks.service.DeliveryService;
import dev.herald.webhooks.service.EndpointService;
import dev.herald.webhooks.service.ReceiverAddresses;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.Cancellable;

/**
 * {@code /webhooks}: register, list, read, change and disable endpoints; rotate a secret; send a test event; read an
 * endpoint's events feed.
 */
@Cancellable(false)
@Path("/webhooks")
@InternalCaller
@Produces(MediaType.APPLICATION_JSON)
public class WebhookResource {
    private final EndpointService endpoints;
    private final DeliveryService deliveries;
    private final ReceiverAddresses addresses;
    private final Caller caller;
    private final ObjectMapper mapper;

    public WebhookResource(
            EndpointService endpoints,
            DeliveryService deliveries,
            ReceiverAddresses addresses,
            Caller caller,
            ObjectMapper mapper) {
        this.endpoints = endpoints;
        this.deliveries = deliveries;
        this.addresses = addresses;
        this.caller = caller;
        this.mapper = mapper;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> create(JsonNode json) {
        EndpointRequest request = EndpointRequestReader.read(json, addresses);
        return endpoints
                .create(
                        caller.workspaceId(),
                        caller.mode(),
                        request.body(),
                        request.kind(),
                        request.url(),
                        request.description(),
                        request.events())
                .map(endpoint -> Response.status(Response.Status.CREATED)
                        .entity(DataEnvelope.of(endpoint))
                        .build());
    }

    @GET
    @Paginated
    public Uni<ListEnvelope<WebhookEndpoint>> list(
            @QueryParam("limit") String limit, @QueryParam("cursor") String cursor) {
        return endpoints.list(caller.workspaceId(), caller.mode(), limit, cursor);
    }

    @GET
    @Path("/{id}")
    public Uni<DataEnvelope<WebhookEndpoint>> get(@PathParam("id") String id) {
        return endpoints.get(caller.workspaceId(), caller.mode(), id).map(DataEnvelope::of);
    }

    /** The events delivered to the endpoint, newest first: how a pull endpoint receives them. */
    @GET
    @Path("/{id}/events")
    @Paginated
    public Uni<ListEnvelope<JsonNode>> events(
            @PathParam("id") String id, @QueryParam("limit") String limit, @QueryParam("cursor") String cursor) {
        return deliveries.eventsOfEndpoint(caller.workspaceId(), caller.mode(), id, limit, cursor);
    }

    /** Changes the endpoint's description or events; its url, status and secret are not fields of this request. */
    @PATCH
    @Path("/{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<DataEnvelope<WebhookEndpoint>> update(@PathParam("id") String id, JsonNode json) {
        EndpointChanges changes = EndpointRequestReader.readChanges(json);
        return endpoints
                .update(caller.workspaceId(), caller.mode(), id, changes)
                .map(DataEnvelope::of);
    }

    /** Disables the endpoint (the spec's DELETE); idempotent, answering the endpoint. */
    @DELETE
    @Path("/{id}")
    public Uni<DataEnvelope<WebhookEndpoint>> disable(@PathParam("id") String id) {
        return endpoints.disable(caller.workspaceId(), caller.mode(), id).map(DataEnvelope::of);
    }

    @POST
    @Path("/{id}/rotate-secret")
    public Uni<DataEnvelope<WebhookEndpoint>> rotateSecret(@PathParam("id") String id, String body) {
        JsonBody.noFields(body, mapper);
        return endpoints.rotateSecret(caller.workspaceId(), caller.mode(), id).map(DataEnvelope::of);
    }

    /** Sends a signed {@code webhook.test} event to the endpoint; answers its delivery (202: on its way). */
    @POST
    @Path("/{id}/test")
    public Uni<Response> test(@PathParam("id") String id, String body) {
        JsonBody.noFields(body, mapper);
        return endpoints
                .sendTest(caller.workspaceId(), caller.mode(), id)
                .map(delivery -> Response.status(Response.Status.ACCEPTED)
                        .entity(DataEnvelope.<WebhookDelivery>of(delivery))
                        .build());
    }
}
