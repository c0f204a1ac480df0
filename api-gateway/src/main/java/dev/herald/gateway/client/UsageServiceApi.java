package dev.herald.gateway.client;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/** usage-service's internal API, as the gateway calls it. Answers are read by {@link UsageClient}. */
@RegisterRestClient(configKey = "usage-service")
@Path("/internal")
@Produces(MediaType.APPLICATION_JSON)
public interface UsageServiceApi {
    @GET
    @Path("/entitlements")
    Uni<Response> entitlements(@HeaderParam("authorization") String bearer);

    @PUT
    @Path("/subscription")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<Response> changeSubscription(@HeaderParam("authorization") String bearer, String body);
}
