package dev.herald.common.client;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/**
 * usage-service's internal API: entitlements, the plan catalog and subscriptions, connected-account slots, and reservations. Answers
 * are read by {@link UsageClient}; the caller's {@code quarkus.rest-client.usage-service.*} settings configure it.
 */
@RegisterRestClient(configKey = "usage-service")
@Path("/internal")
@Produces(MediaType.APPLICATION_JSON)
public interface UsageServiceApi {
    @GET
    @Path("/entitlements")
    Uni<Response> entitlements(@HeaderParam("authorization") String bearer);

    @GET
    @Path("/plans")
    Uni<Response> plans(@HeaderParam("authorization") String bearer);

    @PUT
    @Path("/subscription")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<Response> changeSubscription(@HeaderParam("authorization") String bearer, String body);

    @POST
    @Path("/connected-accounts")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<Response> connect(@HeaderParam("authorization") String bearer, String body);

    @DELETE
    @Path("/connected-accounts/{accountId}")
    Uni<Response> disconnect(@HeaderParam("authorization") String bearer, @PathParam("accountId") String accountId);

    @POST
    @Path("/reservations")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<Response> reserve(@HeaderParam("authorization") String bearer, String body);

    @POST
    @Path("/reservations/batch")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<Response> reserveBatch(@HeaderParam("authorization") String bearer, String body);

    @POST
    @Path("/reservations/{reservationId}/check")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<Response> check(
            @HeaderParam("authorization") String bearer, @PathParam("reservationId") String reservationId, String body);

    @POST
    @Path("/reservations/{reservationId}/consume")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<Response> consume(
            @HeaderParam("authorization") String bearer, @PathParam("reservationId") String reservationId, String body);

    @POST
    @Path("/reservations/{reservationId}/release")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<Response> release(
            @HeaderParam("authorization") String bearer, @PathParam("reservationId") String reservationId, String body);
}
