package dev.herald.delivery.client;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/** usage-service's reservations and entitlements, as the worker calls them. Answers are read by {@link UsageClient}. */
@RegisterRestClient(configKey = "usage-service")
@Path("/internal")
@Produces(MediaType.APPLICATION_JSON)
public interface UsageServiceApi {
    @POST
    @Path("/reservations/{reservationId}/check")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<Response> check(
            @HeaderParam("authorization") String bearer, @PathParam("reservationId") String reservationId, String body);

    @POST
    @Path("/reservations")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<Response> reserve(@HeaderParam("authorization") String bearer, String body);

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

    @GET
    @Path("/entitlements")
    Uni<Response> entitlements(@HeaderParam("authorization") String bearer);
}
